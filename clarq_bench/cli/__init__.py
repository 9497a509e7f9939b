"""`clarq ...`: one module per command group; each handler parses flags, makes one call of the Python API
(clarq_bench.api) and prints. The top layer: it may import anything below it, and nothing imports it.
"""
