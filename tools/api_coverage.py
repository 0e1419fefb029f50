"""Count the documented asc-devkit API names ascreg has, per surface.

A name is *had* when ``getattr(<surface module>, name)`` works; names whose pages say the Ascend
950 does not support them are counted apart (they are not gaps). A C API page named after a
family of functions (``asc_create_mask`` documents ``asc_create_mask_b8`` ...) is had when every
function it declares is. Overview pages named after a topic (basic API) are in the list too
and count as missing.

Usage::

    PYTHONPATH=src python tools/api_coverage.py [--missing SURFACE]
"""

from __future__ import annotations

import argparse
import importlib

from ascreg._frontend.missing import documented_names, families, not_on_950

MODULES = {
    "reg": "ascreg.reg",
    "c_api": "ascreg.c_api",
    "simt": "ascreg.simt",
    "basic": "ascreg.basic",
}


def has(module: object, name: str) -> bool:
    """Return True when *module* has *name* (a dotted ``Class.Member`` is looked up in turn)."""
    found: object = module
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            return False
    return True


def coverage() -> dict[str, tuple[list[str], list[str], list[str]]]:
    """Surface -> (had, missing on the 950, not on the 950), each sorted."""
    result = {}
    for surface, module_name in MODULES.items():
        module = importlib.import_module(module_name)
        had, missing, elsewhere = [], [], []
        for name in sorted(documented_names()[surface]):
            members = families().get((surface, name), (name,))
            if all(has(module, member) for member in members):
                had.append(name)
            elif (surface, name) in not_on_950():
                elsewhere.append(name)
            else:
                missing.append(name)
        result[surface] = (had, missing, elsewhere)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", choices=MODULES, help="list the missing names of a surface")
    args = parser.parse_args()
    table = coverage()
    for surface, (had, missing, elsewhere) in table.items():
        on_950 = len(had) + len(missing)
        print(
            f"{surface:6s} {len(had):4d} of {on_950:4d} documented for the 950 "
            f"({len(elsewhere)} more are documented for other products only)"
        )
    if args.missing:
        print("\n".join(table[args.missing][1]))


if __name__ == "__main__":
    main()
