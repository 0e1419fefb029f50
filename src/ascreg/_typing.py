"""The typing stubs' shared aliases (``_IntLike``, ``_Float32Array``, ...): nothing at runtime.

The aliases are declared once, in the generated stub ``ascreg/_typing.pyi`` (written by
``tools/gen_stubs.py``), and each stub module imports the ones it uses. They are private, so this
module defines none of them; it exists so that the stub has a module (stubtest imports every
stubbed module).
"""
