"""Where the files shipped beside the code are: prompts/ (every wording) and tasks/ (the sample tasks).

They stay at the repository's top, as the layout asks. A wheel carries them inside the package (setup.py copies them
in when it builds), where importlib.resources finds them; a source checkout or an editable install has no copy
inside the package, and there the top folders are the ones used. Nothing else here: no reading, no caching.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

#: The top folders a wheel carries inside the package (setup.py's SHIPPED says the same).
SHIPPED = ("prompts", "tasks")


def shipped(name: Literal["prompts", "tasks"]) -> Path:
    """The folder `name`: the installed copy inside the package, else the checkout's top folder."""
    installed = resources.files("clarq_bench") / name
    if installed.is_dir():
        return Path(str(installed))
    return Path(__file__).resolve().parents[2] / name
