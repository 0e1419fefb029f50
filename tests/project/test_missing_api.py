"""A documented asc-devkit API that ascreg lacks says so (MissingApiError, an AttributeError)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import ascreg.basic
import ascreg.c_api
import ascreg.reg
import ascreg.simt
from ascreg._frontend.missing import documented_names, families, not_on_950
from ascreg.errors import MissingApiError


def _first_missing(module: object, surface: str) -> str:
    """A documented name *module* lacks (the surface's gaps shrink as ascreg grows)."""
    for name in sorted(documented_names()[surface]):
        if "." in name:  # a member (TQue.EnQue): looked up on its class, not the module
            continue
        if (surface, name) in not_on_950() or (surface, name) in families():
            continue  # they say so in their own words (tested below)
        try:
            getattr(module, name)
        except MissingApiError:
            return name
    pytest.skip(f"ascreg.{surface} has every documented name")


@pytest.mark.parametrize(
    ("module", "surface", "prefix"),
    [
        (ascreg.reg, "reg", "Reg."),
        (ascreg.c_api, "c_api", ""),
        (ascreg.simt, "simt", ""),
        (ascreg.basic, "basic", ""),
    ],
)
def test_documented_but_missing_names_say_so(module: object, surface: str, prefix: str) -> None:
    name = _first_missing(module, surface)
    spelled = prefix + name
    with pytest.raises(MissingApiError) as info:
        getattr(module, name)
    assert isinstance(info.value, AttributeError)
    assert str(info.value) == (
        f"{spelled} is documented by the asc-devkit but ascreg does not emulate it yet; "
        "see docs/limitations.md"
    )
    assert not hasattr(module, name)


def test_unknown_names_are_plain_attribute_errors() -> None:
    with pytest.raises(AttributeError) as info:
        ascreg.reg.Selcet  # noqa: B018
    assert not isinstance(info.value, MissingApiError)
    assert str(info.value) == "module 'ascreg.reg' has no attribute 'Selcet'"


def test_the_name_list_ships_with_the_package() -> None:
    names = documented_names()
    assert {"LoadAlign", "Exp"} <= names["reg"]
    assert {"asc_add", "asc_loadunalign_pre"} <= names["c_api"]
    assert "__byte_perm" in names["simt"]
    assert {"SyncAll", "TQue.EnQue", "LocalTensor.ReinterpretCast"} <= names["basic"]
    # What ascreg has is documented too (the list is the documents', not ascreg's gaps).
    assert hasattr(ascreg.reg, "LoadAlign") and hasattr(ascreg.c_api, "asc_add")


def test_names_the_950_lacks_say_so_instead_of_not_yet() -> None:
    """A page whose product table says the Ascend 950 does not support it is not a gap."""
    assert ("c_api", "asc_repeat_reduce_sum") in not_on_950()
    assert not any(surface == "reg" for surface, _ in not_on_950())
    with pytest.raises(MissingApiError, match=r"Ascend 950 \(dav-3510\).*does not support it"):
        ascreg.c_api.asc_repeat_reduce_sum  # noqa: B018


def test_the_coverage_count_splits_every_documented_name_once() -> None:
    """tools/api_coverage.py (the name count the issues report) puts each name in one bucket."""
    path = Path(__file__).resolve().parents[2] / "tools" / "api_coverage.py"
    spec = importlib.util.spec_from_file_location("api_coverage", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    for surface, (had, missing, elsewhere) in tool.coverage().items():
        assert sorted(had + missing + elsewhere) == sorted(documented_names()[surface])
    assert "asc_add" in tool.coverage()["c_api"][0]
    assert {"TQue.EnQue", "TPipe.FetchEventID"} <= set(tool.coverage()["basic"][0])


def test_basic_names_say_so_too() -> None:
    """ascreg.basic, like the other surfaces: a documented name gives MissingApiError."""
    with pytest.raises(MissingApiError, match="GmAlloc is documented by the asc-devkit"):
        ascreg.basic.GmAlloc  # noqa: B018
    with pytest.raises(AttributeError) as info:
        ascreg.basic.SyncAl  # noqa: B018
    assert not isinstance(info.value, MissingApiError)
    assert str(info.value) == "module 'ascreg.basic' has no attribute 'SyncAl'"


def test_the_generator_reads_basic_api_page_names() -> None:
    """tools/gen_documented_names.py on basic-API pages (synthetic paths and titles)."""
    path = Path(__file__).resolve().parents[2] / "tools" / "gen_documented_names.py"
    spec = importlib.util.spec_from_file_location("gen_documented_names", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    root = "docs/zh/api/SIMD-API/基础API/"
    limits = f"{root}工具接口/NumericLimits工具类/"
    files = {f"{root}资源管理/TQue/TQue.md", f"{root}资源管理/TQue/EnQue.md",
             f"{limits}NumericLimits工具类.md", f"{limits}Infinity.md"}  # fmt: skip
    names = tool.basic_page_names
    assert names(
        f"{root}同步/SetFlag-WaitFlag(ISASI).md", "# SetFlag/WaitFlag\\(ISASI\\)\n", files
    ) == [
        "SetFlag",
        "WaitFlag",
    ]
    assert names(f"{root}资源管理/TQue/EnQue.md", "# EnQue\n", files) == ["TQue.EnQue"]
    assert names(f"{root}资源管理/TQue/TQue.md", "# TQue\n", files) == ["TQue"]
    assert names(f"{limits}Infinity.md", "# Infinity\n", files) == ["NumericLimits.Infinity"]
    sync = f"{root}同步控制/"
    lock = (
        "# Lock\nstatic __aicore__ inline void Lock(MutexID id)\nAscendC::Mutex::Lock<PIPE_V>(0);\n"
    )
    unlock = "# Unlock\n[Lock](Lock.md#x)\nstatic __aicore__ inline void Unlock(MutexID id)\n"
    assert names(f"{sync}Lock.md", lock, files) == ["Mutex.Lock"]
    pages = {f"{sync}Lock.md": lock, f"{sync}Unlock.md": unlock}
    found = {f: names(f, page, files) for f, page in pages.items()}
    assert tool.sibling_owner(f"{sync}Unlock.md", pages, found) == ["Mutex.Unlock"]
    page = '# DataCopy（GMToUB多维数据搬运NDDMA）<a name="x"></a>\n'
    assert names(f"{root}搬运/DataCopy（GMToUB多维数据搬运NDDMA）.md", page, files) == ["DataCopy"]
    page = "# SetSysWorkSpace\n__aicore__ inline void SetSysWorkspace(GM_ADDR workspace)\n"
    assert names(f"{root}资源管理/workspace/SetSysWorkSpace.md", page, files) == ["SetSysWorkspace"]
    assert names(f"{root}矩阵/F32-Channel-Split.md", "# F32 Channel Split\n", files) == []
    assert tool.surface_of(f"{root}Reg矢量计算/Add.md") == "reg"
    assert tool.surface_of(f"{root}资源管理/TQue/EnQue.md") == "basic"


def test_a_family_page_name_points_to_its_functions() -> None:
    """``asc_create_mask.md`` documents asc_create_mask_b8/_b16/_b32: its name is no function."""
    with pytest.raises(MissingApiError) as info:
        ascreg.c_api.asc_create_mask  # noqa: B018
    assert str(info.value) == (
        "asc_create_mask is the name of an asc-devkit page, not a function: it documents "
        "asc_create_mask_b8, asc_create_mask_b16, asc_create_mask_b32"
    )
    # a page of the same name for other products adds functions the 950 lacks: not listed
    assert not any(m.endswith("_sync") for m in families()["c_api", "asc_float2int32"])
    assert ("c_api", "asc_dcci_entire_ub") in not_on_950()  # "不支持asc_dcci_entire_ub接口"


def test_the_generator_reads_c_api_families_and_skips_overviews() -> None:
    path = Path(__file__).resolve().parents[2] / "tools" / "gen_documented_names.py"
    spec = importlib.util.spec_from_file_location("gen_documented_names", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    page = "# asc_m\n## 函数原型\n```cpp\nasc_m_b8(p);\nasc_m_b16(p);\n```\n## 参数说明\nasc_other(x);\n"
    assert tool.c_declared(page) == ["asc_m_b8", "asc_m_b16"]
    root = "docs/zh/api/SIMD-API/C-API/reg/"
    assert tool.c_overview(f"{root}reg_load/reg_load.md", [])
    assert tool.c_overview(f"{root}data_type_convert/rounding_mode.md", [])
    assert not tool.c_overview(f"{root}reg_load/asc_loadalign.md", [])
    note = '<!-- npu="950" id8 -->\n针对Ascend 950PR，不支持asc_x_ub接口。\n<!-- end id8 -->'
    assert tool.functions_not_on_950(note) == {"asc_x_ub"}
