"""prompts/ and tasks/ live at the repository's top (the layout asks for it) and go into the wheel inside the
package, as clarq_bench/prompts and clarq_bench/tasks, where core.resources finds them (importlib.resources)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TOP = Path(__file__).resolve().parent
SHIPPED = ("prompts", "tasks")


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        for name in SHIPPED:
            shutil.copytree(TOP / name, Path(self.build_lib) / "clarq_bench" / name, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPy})
