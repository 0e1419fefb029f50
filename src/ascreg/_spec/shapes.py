"""The call-shape vocabulary: how an op's row is called from Python, surface by surface.

A row's dtype facts (roles, legal combinations) say *which* dtypes an op accepts; its shape says
*where* they go: which parameter holds which dtype role, which overload forms exist, which
template subscripts select them. The stub generator (``tools/gen_stubs.py``) renders every row's
shape into ``@overload`` declarations and type tests; nothing else describes an op's calls.

* :class:`Param` is one parameter, of a :class:`ParamKind`.
* :class:`RegForm` / :class:`RegShape` describe a ``Reg.*`` op object (subscriptable, callable).
* :class:`CForm` / :class:`CShape` describe a module-level ``asc_*`` C API function.
* :class:`SimtShape` describes a SIMT device function by its :class:`SimtKind`.
* :class:`BasicForm` / :class:`BasicShape` describe a memory-level basic-API op on LocalTensors.

Examples
--------
>>> from ascreg._spec import SPECS
>>> shape = SPECS["Reg.ShiftRight"].shape
>>> shape.module, shape.attr, [p.name for p in shape.forms[0].params]
('reg/compute', 'ShiftRight', ['dst', 'src', 'count', 'mask'])
>>> shape.forms[0].params[2]
Param(name='count', kind=<ParamKind.REGR: 'regr'>, arg=1)
"""

from __future__ import annotations

import enum

import attrs

from ascreg._dtypes import Scalar, bool_


class ParamKind(enum.StrEnum):
    """What one parameter is; a kind that names a dtype reads it from the role ``Param.arg``.

    The member values are the short spellings the rows use (``"regr"``, ``"mask?"``); a trailing
    ``?`` marks an optional parameter (default ``None``). The first group is the Reg surface's,
    the second the C API's; ``scalar``, ``count`` and ``int?``-like kinds serve both.
    """

    REG = "reg"
    """``RegTensor[D]`` of the role's dtype D, RegTraitNumOne only (a 64-bit D has 32 lanes)."""
    REGR = "regr"
    """``RegTensor[D, R]``, for a 64-bit D either RegTrait (the overload is generic in R)."""
    REG2 = "reg2"
    """``RegTensor[D, RegTraitNumTwo]`` for a 64-bit D, else ``RegTensor[D]`` (TraitTwo only)."""
    SCALAR = "scalar"
    """A Python or numpy scalar of D's kind (bool, int or float)."""
    PTR = "ptr"
    """``UbPtr[D]``, a typed pointer into the Unified Buffer."""
    PTRREF = "ptrref"
    """``Ref[UbPtr[D]]``, a pointer the call advances (C++ ``T*&``, post-update forms)."""
    PTRVAL = "ptrval"
    """``UbPtr[D]`` passed by value, or the ``Ref[UbPtr[D]]`` holding it (C++ binds the
    variable a post-update call advances: ``LoadUnAlignPre(ureg, src)``)."""
    MASK = "mask"
    """A ``MaskReg`` (predicate or mask operand)."""
    MASK_OPT = "mask?"
    """An optional ``MaskReg`` (``None``: every lane)."""
    ADDR = "addr"
    """An ``AddrReg`` offset register (``Reg.CreateAddrReg``)."""
    INT = "int"
    """A plain ``int`` (strides, post-update steps)."""
    INT_OPT = "int?"
    """An optional integer (``None``: the op's default, e.g. a whole register)."""
    COUNT = "count"
    """``Ref[int]``, a count the call reads and updates (``UpdateMask``)."""
    ANYPTR = "anyptr"
    """``UbPtr[Any]``, a pointer of any element type (MaskReg loads and stores)."""
    ANYPTRREF = "anyptrref"
    """``Ref[UbPtr[Any]]``, the post-update form of ``anyptr``."""
    ANYREG = "anyreg"
    """``RegTensor[Any, Any]``, a register of any element type (a form whose dtypes the runtime
    checks against its own table: ``Gather``'s UB form)."""
    ULOAD = "uload"
    """The unaligned-load state register ``UnalignRegForLoad``."""
    USTORE = "ustore"
    """The unaligned-store state register ``UnalignRegForStore``."""
    VEC = "vec"
    """(C API) ``RegTensor[D]`` (``vector_*``), or ``MaskReg`` when D is ``bool_`` (vector_bool)."""
    VPTR = "vptr"
    """(C API) ``UbPtr[D]``, or a uint8/16/32 pointer when D is ``bool_`` (mask loads/stores)."""
    VPTRREF = "vptrref"
    """(C API) ``Ref[...]`` of the ``vptr`` type (``_postupdate`` forms)."""
    VPTRS = "vptrs"
    """(C API) a C array of ``vptr`` (``asc_mrgsort4``'s four queues): a sequence of
    ``UbPtr[D] | None``."""
    VPTRVAL = "vptrval"
    """(C API) the ``vptr`` type passed by value, or the ``Ref`` holding it."""
    CMASK = "cmask"
    """(C API) a ``vector_bool`` mask."""
    CMASK_OPT = "cmask?"
    """(C API) an optional ``vector_bool`` mask."""
    IDX = "idx"
    """(C API) an integer offset or stride (``int`` or a numpy integer)."""
    IDX_OPT = "idx?"
    """(C API) an optional integer (``asc_store``'s element count)."""
    PATTERN = "pattern"
    """(C API) a ``PAT_*`` constant (``MaskPattern``)."""
    AREG = "areg"
    """(C API) an ``addr_reg`` (``asc_update_addr_reg_b8/_b16/_b32``)."""
    VAREG = "vareg"
    """(C API) a VA address register ``ub_addr8_t`` (``VA0`` .. ``VA7``)."""
    CULOAD = "cuload"
    """(C API) the unaligned-load register ``vector_load_unalign``."""
    CUSTORE = "custore"
    """(C API) the unaligned-store register ``vector_store_unalign``."""
    # -- kernel-level (scalar unit) C API functions --
    PIPE = "pipe"
    """(C API) a ``pipe_t`` (``PIPE_S``, ``PIPE_V``, ``PIPE_MTE2``, ...)."""
    GPTR = "gptr"
    """(C API) ``GmPtr[D]``, a typed Global Memory pointer."""
    ANYGM = "anygm"
    """(C API) ``GmPtr[Any]``, a ``__gm__ void*``."""
    ANYUB = "anyub"
    """(C API) ``UbPtr[Any]``, a ``__ubuf__ void*``."""
    ANYCBUF = "anycbuf"
    """(C API) a ``__cbuf__ void*`` (the cube unit's L1 buffer, which ascreg does not emulate:
    any value; the functions that take one raise :class:`~ascreg.errors.UnsupportedError`)."""
    CBUFPTR = "cbufptr"
    """(C API) ``CbufPtr[D]``, a typed ``__cbuf__ T*`` into the cube unit's L1 buffer."""
    CAPTR = "captr"
    """(C API) ``CaPtr[D]``, a typed ``__ca__ T*`` into L0A (the left matrix)."""
    CBPTR = "cbptr"
    """(C API) ``CbPtr[D]``, a typed ``__cb__ T*`` into L0B (the right matrix)."""
    CCPTR = "ccptr"
    """(C API) ``CcPtr[D]``, a typed ``__cc__ T*`` into L0C (the results)."""
    ANYFBUF = "anyfbuf"
    """(C API) ``FbufPtr[Any]``, a ``__fbuf__ void*`` into the cube unit's Fixpipe buffer."""
    FILL_CONFIG = "fillcfg"
    """(C API) an ``asc_fill_value_config`` (``asc_fill_l1``)."""
    L13D_CONFIG = "l13dcfg"
    """(C API) an ``asc_l13d_fmatrix_config`` (``asc_set_l13d_fmatrix[_b]``)."""
    LOAD3D_CONFIG = "load3dcfg"
    """(C API) an ``asc_load3d_v2_config`` (``asc_set_l13d_rpt``)."""
    ATOMIC_CONFIG = "atomiccfg"
    """(C API) an ``asc_store_atomic_config`` the call fills (C++ reference)."""
    NDIM_CONFIG = "ndimcfg"
    """(C API) an ``asc_ndim_pad_count_config``."""
    FLAG = "flag"
    """(C API) a C ``bool`` (``padding_mode``)."""
    L2_LOAD = "l2load"
    """(C API) an ``asc_load_l2_cache_mode`` (or the deprecated ``uint8_t`` code)."""


REGISTER_FILE_KINDS: frozenset[ParamKind] = frozenset(
    {
        ParamKind.REG, ParamKind.REGR, ParamKind.REG2, ParamKind.SCALAR, ParamKind.MASK,
        ParamKind.MASK_OPT, ParamKind.INT, ParamKind.INT_OPT, ParamKind.VEC, ParamKind.CMASK,
        ParamKind.CMASK_OPT, ParamKind.IDX, ParamKind.IDX_OPT,
    }
)  # fmt: skip
"""The parameter kinds of an op that works on the register file alone: vector and mask
registers, scalars and plain integers (no address, count, address or unaligned register, and
no kernel-level operand)."""


@attrs.frozen
class Param:
    """One parameter of a call form.

    Attributes
    ----------
    name
        The parameter's name as the runtime spells it (keyword calls use it).
    kind
        What the parameter is (:class:`ParamKind`; a plain string is converted).
    arg
        The index of the dtype role the parameter's type is built from (``0``: the first role).

    Examples
    --------
    >>> Param("count", "scalar", 1)
    Param(name='count', kind=<ParamKind.SCALAR: 'scalar'>, arg=1)
    """

    name: str
    kind: ParamKind = attrs.field(converter=ParamKind)
    arg: int = 0


@attrs.frozen
class RegForm:
    """One overload family of a ``Reg.*`` op: one overload per legal combination, or one in all.

    Attributes
    ----------
    tag
        A short label of the form (``"AddrReg"``, ``"post-update"``); ``""`` for the main form.
    params
        The parameters of ``__call__`` after ``self``.
    returns
        The return annotation, as a stub spells it.
    bound
        The subscript kind that offers the form (a key of :attr:`RegShape.subscripts`:
        ``"plain"``, ``"post"``, ``"block"``, ...).
    deduced
        Whether the bare call (no template arguments) offers the form, as C++ deduction does.
    per_combo
        One overload per legal combination (``False``: one overload, e.g. MaskReg operands).
    dtypes
        When given, the form exists only for combinations whose first dtype is listed (the
        carry overload ``Add(MaskReg& carry, dst, src0, src1, mask)`` takes int32/uint32).

    Examples
    --------
    >>> RegForm("MaskReg operands", (Param("dst", "mask"), Param("src", "mask")), per_combo=False).bound
    'plain'
    """

    tag: str
    params: tuple[Param, ...]
    returns: str = "None"
    bound: str = "plain"
    deduced: bool = True
    per_combo: bool = True
    dtypes: tuple[type[Scalar], ...] | None = None

    def applies(self, combo: tuple[type[Scalar], ...]) -> bool:
        """Return True when the form exists for *combo* (see :attr:`dtypes`)."""
        return self.dtypes is None or combo[0] in self.dtypes


SubscriptPatterns = tuple[tuple[str, ...], ...]
"""The template argument lists a subscript may spell (after a lead), one tuple of tokens each."""

DTYPE = "T"
"""The token of a dtype template argument: the k-th ``"T"`` of a list is the row's role k."""
SCALAR_TYPE = "U"
"""The token of the scalar operand's type (``Muls<T, U, mode>``'s ``U``): any scalar type; the
value is converted to it, then to the register's type, as C++ converts the argument."""
OWN_DTYPE = "X"
"""The token of a dtype the op checks against its own table (``Gather``'s UB form
``Gather<T0, T1, T2>``: destination, source and index types)."""

PLAIN_ONLY: tuple[tuple[str, SubscriptPatterns], ...] = (("plain", ((DTYPE,),)),)
"""The subscripts of an op whose template arguments are one dtype (``Op[T]``)."""


def cxx(*params: str, required: int = 1) -> SubscriptPatterns:
    """Return the subscripts of one C++ template parameter list: its prefixes from *required* on.

    *params* are the list's tokens up to its first register-type parameter (``S``, ``V``: the
    operands' ``RegTensor`` types, which C++ deduces and ascreg never spells); *required* is
    how many must be written (the parameters up to the last one with no default that the call
    cannot deduce: ``Histograms<T, U, mode, type>`` needs all four).

    Examples
    --------
    >>> cxx("T", "U", "MaskMergeMode")
    (('T',), ('T', 'U'), ('T', 'U', 'MaskMergeMode'))
    >>> cxx("T", "OFFSET", required=2)
    (('T', 'OFFSET'),)
    """
    return tuple(params[:n] for n in range(required, len(params) + 1))


def leading_dtypes(pattern: tuple[str, ...]) -> int:
    """Return how many ``"T"`` tokens a pattern starts with (its dtype prefix)."""
    n = 0
    while n < len(pattern) and pattern[n] == DTYPE:
        n += 1
    return n


@attrs.frozen
class RegShape:
    """How a ``Reg.*`` op object is called: where it lives, its forms and its subscripts.

    A subscript is one of the template argument lists C++ declares for the op, in its order
    (after the lead member, if any): a tuple of tokens. ``"T"`` is a dtype of the row (the k-th
    ``"T"`` is role k, and the ``"T"`` tokens come first), ``"U"`` the type of a scalar
    operand (``SCALAR_TYPE``), ``"X"`` a dtype the op checks itself (``OWN_DTYPE``);
    every other token is an enum class name (``"MaskMergeMode"``, ``"CMPMODE"``,
    ``"LoadDist"``, ...: any member of it), ``"POST"`` / ``"NORMAL"``
    (``PostLiteral.POST_MODE_UPDATE`` / ``POST_MODE_NORMAL``), ``"TRAIT"`` (a RegTrait class)
    or ``"OFFSET"`` (an ``int`` non-type template argument). The runtime accepts exactly these
    lists (:mod:`ascreg._frontend.template`), and the stubs declare them.

    Attributes
    ----------
    module
        The stub module, relative to the package (``"reg/compute"``).
    attr
        The op object's name in that module (``"ShiftRight"``).
    cls
        The stub class of the op object (``"_ShiftRight"``).
    forms
        The overload families, in the order the stub lists them.
    subscripts
        ``(bound, patterns)`` pairs: each subscript kind a form can be bound to, and the
        template argument lists that spell it (``("plain", (("T",), ("T", "MaskMergeMode")))``;
        ``cxx`` writes a C++ list's prefixes).
    needs_template
        C++ cannot deduce ``T``: the bare call is an error (the stub has no ``__call__``).
    positional
        The runtime takes ``*args``: parameters are positional-only.
    lead
        Leading enum members that select the legal combinations
        (``Reduce[ReduceType.MAX, ...]``): ``(member spelling, its combinations)`` pairs. With a
        lead, subscripts start with the member (the pattern ``()`` is the member alone); the
        bare call takes the row's union.
    fixed
        Aliases of the op with its lead fixed: ``(alias, lead member)`` pairs
        (``("Reg.ReduceSum", "ReduceType.SUM")``: ``ReduceSum[T, U]`` is
        ``Reduce[ReduceType.SUM, T, U]``). Every other alias of the row is the op itself.

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> SPECS["Reg.Compare"].shape.patterns("plain")
    (('T',), ('T', 'CMPMODE'))
    >>> SPECS["Reg.Muls"].shape.tails("plain", 1)
    ((), ('U',), ('U', 'MaskMergeMode'))
    """

    module: str
    attr: str
    cls: str
    forms: tuple[RegForm, ...]
    subscripts: tuple[tuple[str, SubscriptPatterns], ...] = PLAIN_ONLY
    needs_template: bool = False
    positional: bool = False
    lead: tuple[tuple[str, tuple[tuple[type[Scalar], ...], ...]], ...] = ()
    fixed: tuple[tuple[str, str], ...] = ()

    def patterns(self, bound: str) -> SubscriptPatterns:
        """Return the template argument lists of the subscript kind *bound* (``()``: none)."""
        return dict(self.subscripts).get(bound, ())

    def all_patterns(self) -> SubscriptPatterns:
        """Return every template argument list of every subscript kind, without repeats."""
        return tuple(dict.fromkeys(p for _, patterns in self.subscripts for p in patterns))

    def tails(self, bound: str, dtypes: int) -> SubscriptPatterns:
        """Return what follows exactly *dtypes* leading dtypes in the lists of *bound*."""
        return tuple(p[dtypes:] for p in self.patterns(bound) if leading_dtypes(p) == dtypes)

    def dtype_counts(self, bound: str) -> tuple[int, ...]:
        """Return the lengths of the dtype prefixes the lists of *bound* start with."""
        return tuple(sorted({leading_dtypes(p) for p in self.patterns(bound)}))

    @property
    def template_dtypes(self) -> int:
        """How many dtype template arguments (``"T"``) C++ lets you write, at most."""
        return max((leading_dtypes(p) for p in self.all_patterns()), default=0)

    @property
    def token_only(self) -> bool:
        """Whether a subscript may be tokens alone (``Pack[HighLowPart.HIGHEST]``).

        C++ ``Pack<part>``, for the forms that are not per combination.
        """
        return not self.lead and any(p and p[0] != DTYPE for p in self.patterns("plain"))

    def uses_token(self, token: str) -> bool:
        """Return True when some subscript pattern contains *token* (``"TRAIT"``)."""
        return any(token in pattern for _, patterns in self.subscripts for pattern in patterns)


@attrs.frozen
class CForm:
    """One overload family of a C API function: one overload per combination it applies to.

    Attributes
    ----------
    tag
        A short label of the form (``"returning"``, ``"vector_bool"``); ``""`` for the main form.
    params
        The function's parameters.
    returns
        The return annotation; ``"{vec0}"`` is the ``vector_*`` class of the combination's first
        dtype.
    only
        Which combinations the form exists for: ``"all"``, ``"vector"`` (not the ``bool_``
        combination, the ``vector_bool`` form) or ``"bool"`` (only that one).
    dtypes
        When given, the form exists only for combinations whose first dtype is listed
        (``asc_copy(vector_bool&, vector_T, part)`` takes b16/b32 sources).
    combos
        When given, the form exists only for these combinations (``asc_gather``'s register and
        UB forms take different (dst, src, index) triples).

    Examples
    --------
    >>> CForm("", (Param("dst", "vec"), Param("src", "vec"))).only
    'all'
    """

    tag: str
    params: tuple[Param, ...]
    returns: str = "None"
    only: str = "all"
    dtypes: tuple[type[Scalar], ...] | None = None
    combos: tuple[tuple[type[Scalar], ...], ...] | None = None

    def applies(self, combo: tuple[type[Scalar], ...]) -> bool:
        """Return True when the form exists for *combo* (a ``bool_`` one is ``vector_bool``)."""
        if self.combos is not None:
            return combo in self.combos
        if self.dtypes is not None:
            return combo[0] in self.dtypes
        is_bool = combo[0] is bool_
        return {"all": True, "vector": not is_bool, "bool": is_bool}[self.only]


@attrs.frozen
class CShape:
    """How a C API row (a module-level ``asc_*`` function) is called.

    Attributes
    ----------
    module
        The stub module, relative to the package (``"c_api/compute"``).
    forms
        The overload families, in the order the stub lists them.
    positional
        The runtime takes ``*args``: parameters are positional-only.
    kernel
        A kernel-level function of the scalar unit (``asc_clz``, ``asc_sync_block_arrive``):
        callable in the kernel body, not only inside a ``__simd_vf__`` function.

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> [f.tag for f in SPECS["asc_shiftright"].shape.forms]
    ['dst', 'returning']
    """

    module: str
    forms: tuple[CForm, ...]
    positional: bool = False
    kernel: bool = False


class SimtKind(enum.StrEnum):
    """The call pattern of a SIMT device function (each kind has its own stub rendering).

    SIMT values are Python numbers, numpy scalars and arrays (a kernel's per-thread ``Lanes``),
    so the stubs check numpy dtypes where the argument's static type names one.
    """

    INT = "int"
    """An integer intrinsic (one overload per C overload and per scalar/array form, narrowest
    first, as the runtime resolves them)."""
    FLOAT = "float"
    """A ``float`` math function (scalars give ``np.float32``, arrays ``NDArray[np.float32]``)."""
    SHFL = "shfl"
    """A warp shuffle ``(var, lane parameter, width=32)``."""
    PREDICATE = "predicate"
    """A warp vote on an ``int32_t`` predicate (``asc_ballot``, ``asc_all``, ``asc_any``)."""
    REDUCE = "reduce"
    """A warp reduction of one value."""
    ATOMIC = "atomic"
    """An atomic on ``T* address`` returning the old value."""
    LOAD = "load"
    """A cache-hinted load from ``T* address``."""
    STORE = "store"
    """A cache-hinted store to ``T* address``."""
    HALF = "half"
    """A ``half`` / ``bfloat16_t`` scalar function or conversion (one overload per combination;
    ``results`` gives each one's C return type)."""
    LIBM = "libm"
    """A math library function or a conversion, with ``float`` and integer parameters of the
    row's types; the last :attr:`SimtShape.pointers` parameters pointers, the result of the C
    return type in :attr:`SimtShape.results` (none: ``void``)."""
    # -- half2 / bfloat16x2_t and the vector types (issue 12) --
    PAIR = "pair"
    """A ``half2``/``bfloat16x2_t`` function returning the pair type of its arguments (the row's
    combinations name the element types: ``(half, half)`` is ``(half2, half2)``)."""
    PAIR_BOOL = "pair_bool"
    """A pair comparison returning one ``bool`` for both components (``__hbeqx2``)."""
    PAIR_MASK = "pair_mask"
    """A pair comparison returning an ``unsigned int`` mask (``__heqx2_mask``)."""
    GROUP = "group"
    """A cooperative-groups function (``cooperative_groups.h``): a group constructor, or a
    member as a free function taking the group first; :attr:`SimtShape.groups` names the group
    classes it takes (the row's roles and combinations are the value parameters after it)."""
    ADDRESS = "address"
    """An address-space predicate or conversion (``__isGlobal``, ``__cvta_generic_to_ubuf``,
    ``__cvta_ubuf_to_generic`` ...): a generic pointer (``const void*``, the row's ``uint64_t``)
    or a raw address (``size_t rawbits``) in, ``results`` out."""
    VOID = "void"
    """A ``void`` function of a Global Memory address or of nothing (``asc_dcci_entire``,
    ``asc_nop``)."""
    PACK = "pack"
    """A pair conversion or packing function (``__float22half2_rn``, ``__high2half``,
    ``__hif822float2`` ...): its C parameter and result types are the entry of
    ``ascreg._spec.simt.PACK_ROWS`` (the row's combinations name their element types)."""
    MAKE = "make"
    """A vector constructor ``make_<type>(x, y, ...)`` (the combination: one element type per
    component; the result is the vector type named by the row)."""


@attrs.frozen
class SimtShape:
    """How a SIMT row (a device function) is called: its stub module and kind.

    Attributes
    ----------
    module
        The stub module, relative to the package (``"simt/intrinsics"``).
    kind
        The call pattern (:class:`SimtKind`; a plain string is converted).
    results
        The C return type of each legal combination, in table order (integer intrinsics, whose
        result is not always the first argument's type: ``int __popc(unsigned int)``); empty
        for the other kinds except ``LIBM`` (its one return type, or none for ``void``).
    pointers
        ``LIBM``: how many trailing parameters are pointers (``sincosf``'s outputs ``s`` and
        ``c``; ``normf``'s input array ``a``).
    groups
        ``GROUP``: the group classes the first parameter takes (``("thread_block_tile",
        "coalesced_group")``); empty for a function that makes a group from nothing.

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> SPECS["__byte_perm"].shape
    SimtShape(module='simt/intrinsics', kind=<SimtKind.INT: 'int'>)
    """

    module: str
    kind: SimtKind = attrs.field(converter=SimtKind)
    results: tuple[type[Scalar], ...] = attrs.field(default=(), repr=False)
    pointers: int = attrs.field(default=0, repr=False)
    groups: tuple[str, ...] = attrs.field(default=(), repr=False)


@attrs.frozen
class BasicForm:
    """One overload family of a memory-level basic-API op (``ascreg.basic``).

    Attributes
    ----------
    tag
        A short label of the form (``"count"``, ``"mask bits"``, ``"mask count"``).
    params
        ``(name, annotation)`` pairs: the annotation as a stub spells it, where ``{T0}``,
        ``{T1}``, ... are the combination's dtypes (``LocalTensor[{T0}]``) and ``{S0}``, ... the
        scalar type of that dtype (a float or an integer).
    dtypes
        When given, the form exists only for combinations whose first dtype is listed (the
        repeat forms of ``Adds`` take 16- and 32-bit types; the count form every type).
    combos
        When given, the form exists only for these combinations (``Cast``'s repeat forms take
        the pairs without a 64-bit side).

    Examples
    --------
    >>> form = BasicForm("count", (("dst", "LocalTensor[{T0}]"), ("count", "_IntLike")))
    >>> form.applies((int,)), [name for name, _ in form.params]
    (True, ['dst', 'count'])
    """

    tag: str
    params: tuple[tuple[str, str], ...]
    dtypes: tuple[type[Scalar], ...] | None = None
    combos: tuple[tuple[type[Scalar], ...], ...] | None = None

    def applies(self, combo: tuple[type[Scalar], ...]) -> bool:
        """Return True when the form exists for *combo* (see :attr:`dtypes`, :attr:`combos`).

        A shorter *combo* (the leading roles) is matched against the combinations' prefixes.
        """
        if self.combos is not None:
            return any(c[: len(combo)] == combo for c in self.combos)
        return self.dtypes is None or combo[0] in self.dtypes


@attrs.frozen
class BasicShape:
    """How a memory-level basic-API op object (``ascreg.basic.Adds``) is called.

    The op object is subscriptable with its C++ template arguments (``Adds[half]``,
    ``Cast[float32_t, half]``) and callable with any of its forms.

    Attributes
    ----------
    module
        The stub module, relative to the package (``"basic/_vector"``).
    attr
        The op object's name in that module (``"Adds"``).
    forms
        The overload families, in the order the stub lists them.

    Examples
    --------
    >>> from ascreg._spec import SPECS
    >>> shape = SPECS["basic.Adds"].shape
    >>> shape.module, [form.tag for form in shape.forms]
    ('basic/_vector', ['count', 'mask bits', 'mask count'])
    """

    module: str
    attr: str
    forms: tuple[BasicForm, ...]


Shape = RegShape | CShape | SimtShape | BasicShape
"""A row's call shape, one class per surface."""
