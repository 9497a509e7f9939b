"""The `clarq` command: thin translators from flags to library calls, one module per command group."""
