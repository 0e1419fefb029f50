"""tools/census.py on a small vendored sample: a synthetic devkit, docs and kernel (no repositories).

The sample declares a few AscendC names the way the asc-devkit headers do, documents some of
them the way its pages do (one page for another product only, one cube page), and uses them from
a kernel the way the arch35 kernels write them: ``using namespace AscendC``, ``MicroAPI::``
qualified register ops with template arguments, a queue's member templates, an enum member, the
operator's own helpers and tiling struct (kernel-local, left out) and an ``Ops::Base`` helper.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "census.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ascreg_census_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve their annotations through it
    spec.loader.exec_module(module)
    return module


census = _load()

HEADERS = {
    "include/basic_api/kernel_tpipe.h": """
namespace AscendC {
enum class TPosition : uint8_t { GM, VECIN, VECOUT, VECCALC, A1 };
using QuePosition = TPosition;
enum class HardEvent : uint8_t { V_S, MTE2_V };
class TPipe {
public:
    template <class T> void InitBuffer(T& que, uint8_t num, uint32_t len);
    template <HardEvent evt> TEventID AllocEventID();
};
template <TPosition src, TPosition dst, int32_t depth>
class TQueBind {
public:
    template <typename T> LocalTensor<T> AllocTensor();
    template <typename T> bool EnQue(const LocalTensor<T>& tensor);
    template <typename T> LocalTensor<T> DeQue();
};
template <TPosition pos, int32_t depth>
class TQue : public TQueBind<GetPos(pos, true), GetPos(pos, false), depth> {};
__aicore__ inline void NoSuchBasicApi(int32_t n);
__aicore__ inline void Mmad(int32_t n);
__aicore__ inline void OtherChipOnly(int32_t n);
template <typename T> __aicore__ inline void Add(const LocalTensor<T>& dst, int32_t n);
} // namespace AscendC
""",
    "impl/basic_api/reg_compute/kernel_reg.h": """
namespace AscendC {
namespace Reg {
enum class MaskMergeMode { ZEROING, MERGING };
enum class LoadDist { DIST_NORM };
template <typename T, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
__aicore__ inline void Muls(S& dst, S& src, U scalar, MaskReg& mask);
template <typename T, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
__aicore__ inline void Add(S& dst, S& src0, S& src1, MaskReg& mask);
template <typename T> class RegTensor {};
class MaskReg {};
struct CastTrait { int layout; };
template <typename T, typename U, const CastTrait& trait, typename S>
__aicore__ inline void Cast(S& dst, S& src, MaskReg& mask);
}
}
""",
}
PAGES = {
    "SIMD-API/基础API/资源管理/TQue/EnQue.md": "# EnQue\n```cpp\nbool EnQue(LocalTensor<T>& t)\n```",
    "SIMD-API/基础API/资源管理/TQue/AllocTensor.md": "# AllocTensor\n",
    "SIMD-API/基础API/资源管理/TQue/DeQue.md": "# DeQue\n",
    "SIMD-API/基础API/资源管理/TPipe/InitBuffer.md": "# InitBuffer\n",
    "SIMD-API/基础API/资源管理/TPipe/AllocEventID.md": "# AllocEventID\n",
    "SIMD-API/基础API/辅助数据结构/TPosition.md": "# TPosition\n`QuePosition`, `VECIN`, `VECOUT`, `A1`",
    "SIMD-API/基础API/其他/NoSuchBasicApi.md": "# NoSuchBasicApi\n",
    "SIMD-API/基础API/矩阵计算（ISASI）/Mmad.md": "# Mmad\n",
    "SIMD-API/基础API/其他/OtherChipOnly.md": (
        '# OtherChipOnly\n<!-- npu="950" id1 -->\n- Ascend 950PR：不支持\n<!-- end id1 -->'
    ),
    "SIMD-API/基础API/Reg矢量计算/基础算术/Muls.md": "# Muls\n`MaskMergeMode::ZEROING`",
    "SIMD-API/基础API/Reg矢量计算/基础算术/Add.md": "# Add\n",
    "SIMD-API/基础API/Reg矢量计算/寄存器数据类型/RegTensor.md": "# RegTensor\n`MaskReg`",
}
KERNEL = """
#include "my_tiling.h"
using namespace AscendC;
namespace MyOp {
constexpr int32_t BUFFER_NUM = 2;
template <typename T>
class KernelMyOp {
public:
    __aicore__ inline void Init(GM_ADDR x, const MyTilingData* tiling) {
        pipe.InitBuffer(inQueue, BUFFER_NUM, tiling->len * sizeof(T));
        helperLen = Ops::Base::CeilDiv(tiling->len, 8);
    }
    __aicore__ inline void Process() {
        LocalTensor<T> x = inQueue.AllocTensor<T>();
        inQueue.EnQue(x);
        LocalTensor<T> y = inQueue.template DeQue<T>();
        MyHelper(y);
        TEventID id = pipe.AllocEventID<HardEvent::V_S>();
        NoSuchBasicApi(1);
        Mmad(1);
        OtherChipOnly(1);
        Compute();
    }
    __simd_vf__ inline void Compute() {
        MicroAPI::RegTensor<T> r;
        MicroAPI::MaskReg m;
        MicroAPI::Muls<T, T, MicroAPI::MaskMergeMode::ZEROING>(r, r, (T)2, m);
        MicroAPI::Add<T, MicroAPI::MaskMergeMode::ZEROING>(r, r, r, m);
        MicroAPI::Add<T, MicroAPI::LoadDist::DIST_NORM>(r, r, r, m);
    }
    __aicore__ inline void ByArguments(MicroAPI::RegTensor<T>& r, MicroAPI::MaskReg& m) {
        Add<T, MicroAPI::MaskMergeMode::MERGING>(r, r, r, m);  // Reg::Add by ADL
        Cast<float, T, castTrait>(r, r, m);
    }
    static constexpr MicroAPI::CastTrait castTrait = {0};
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    uint32_t helperLen;
};
}
"""
LOCAL = {"my_tiling.h": "struct MyTilingData { uint32_t len; };\nvoid MyHelper(int x);"}


@pytest.fixture(scope="module")
def result() -> object:
    api = census.ApiIndex.from_headers(HEADERS)
    docs = census.DocIndex.from_pages(PAGES)
    found = census.Census(api, docs)
    found.add_text("my_op/op_kernel/arch35/my_op.h", KERNEL, LOCAL)
    found.classify()
    return found


def _entry(result: object, surface: str, name: str) -> object:
    entries = result.entries  # type: ignore[attr-defined]
    matches = [e for (s, n, _), e in entries.items() if s == surface and n == name]
    assert matches, f"{surface} {name} not found in {sorted(n for _, n, _ in entries)}"
    return matches[0]


def test_kernel_local_names_and_language_words_are_left_out(result: object) -> None:
    names = {name for _, name, _ in result.entries}  # type: ignore[attr-defined]
    for local in ("KernelMyOp", "MyTilingData", "MyHelper", "BUFFER_NUM", "Init", "helperLen"):
        assert local not in names
    assert not {"T", "uint32_t", "int32_t", "x", "tiling"} & names


def test_each_class(result: object) -> None:
    assert _entry(result, "basic", "TPipe").status == "documented"
    assert _entry(result, "basic", "NoSuchBasicApi").status == "documented"
    assert _entry(result, "basic", "Mmad").status == "cube"
    assert _entry(result, "basic", "OtherChipOnly").status == "undocumented"  # not on the 950
    assert _entry(result, "basic", "CeilDiv").status == "opbase"
    assert _entry(result, "basic", "QuePosition::VECIN").status == "documented"  # via TPosition


def test_whether_ascreg_accepts_each(result: object) -> None:
    assert _entry(result, "basic", "TPipe").accepted
    assert _entry(result, "basic", "TPipe::InitBuffer").accepted
    assert _entry(result, "reg", "Muls").accepted
    assert _entry(result, "reg", "RegTensor").accepted
    assert _entry(result, "reg", "MaskMergeMode::ZEROING").accepted
    assert not _entry(result, "basic", "NoSuchBasicApi").accepted


def test_methods_are_found_through_the_queue_the_template_makes(result: object) -> None:
    alloc = _entry(result, "basic", "TQue::AllocTensor")
    assert alloc.kind == "method" and alloc.accepted and alloc.status == "documented"
    assert alloc.form_results == {("<type>",): True}  # que.AllocTensor[T]()
    assert _entry(result, "basic", "TQue::DeQue").accepted  # written ".template DeQue<T>"
    alloc_event = _entry(result, "basic", "TPipe::AllocEventID")  # a member template of TPipe
    assert alloc_event.form_results == {("<HardEvent>",): True}


def test_unqualified_calls_with_reg_only_template_arguments_are_reg_by_adl(
    result: object,
) -> None:
    add = _entry(result, "reg", "Add")
    assert ("<type, MaskMergeMode>",) in add.forms
    assert "my_op/op_kernel/arch35/my_op.h" in _entry(result, "reg", "Cast").files
    entries = result.entries  # type: ignore[attr-defined]
    assert not [n for (s, n, _) in entries if s == "basic" and n in ("Add", "Cast")]


def test_template_forms_are_tried_as_subscripts(result: object) -> None:
    add = _entry(result, "reg", "Add")
    assert add.form_results[("<type, MaskMergeMode>",)] is True
    assert add.form_results[("<type, LoadDist>",)] is False  # Add takes no LoadDist
    assert set(add.forms) == {("<type, MaskMergeMode>",), ("<type, LoadDist>",)}
    assert _entry(result, "basic", "TQue").form_results == {("<QuePosition, int>",): True}


def test_counts_files_and_the_summary(result: object) -> None:
    assert _entry(result, "basic", "TPipe").files == {"my_op/op_kernel/arch35/my_op.h"}
    summary = result.summary()  # type: ignore[attr-defined]
    assert summary["files"] == 1
    assert summary["accepted"] < summary["documented"]  # NoSuchBasicApi is missing
    table = census.render(result)
    assert (
        "| `NoSuchBasicApi` | basic | name | documented | 1 | no (`basic.NoSuchBasicApi`)" in table
    )
    assert "`NoSuchBasicApi`" in census.gaps(result)


def _write(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def test_the_command_reads_a_work_tree_and_a_bare_repository(tmp_path: Path) -> None:
    devkit, ops = tmp_path / "devkit", tmp_path / "ops"
    _write(devkit, HEADERS)
    _write(devkit, {f"docs/zh/api/{p}": t for p, t in PAGES.items()})
    _write(
        ops,
        {
            "my_op/op_kernel/arch35/my_op.h": KERNEL,
            "my_op/op_kernel/my_tiling.h": LOCAL["my_tiling.h"],
        },
    )
    _write(ops, {"my_op/tests/op_kernel/arch35/t.h": "void NoSuchBasicApi2();"})  # tests: left out
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(ops)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "sample"], check=True)
    table, gap_list = tmp_path / "census.md", tmp_path / "gaps.md"
    assert (
        census.main(["--devkit", str(devkit), "--git", str(ops / ".git"), "--out", str(table)]) == 0
    )
    from_git = table.read_text()
    assert (
        census.main(
            [str(ops), "--devkit", str(devkit), "--out", str(table), "--gaps", str(gap_list)]
        )
        == 0
    )
    assert table.read_text() == from_git
    assert "Kernel files: 1;" in from_git and "`TQue::AllocTensor`" in from_git
    assert "`NoSuchBasicApi`" in gap_list.read_text()


def test_members_the_headers_do_not_declare_are_not_documented() -> None:
    """A field a kernel reads through a variable of the wrong struct, or a member of a kernel's
    namespace named like an API function, is not that API's (misattributions, issue 25)."""
    headers = {
        "include/adv_api/normalization/normalize_utils.h": """
namespace AscendC {
struct NormPara { uint32_t aLength; uint32_t rLength; };
struct WelPara { uint32_t abLength; };
__aicore__ inline void RmsNorm(int32_t n);
}
""",
    }
    pages = {
        "SIMD-API/高阶API/归一化操作/Norm.md": "# Norm\n`NormPara`, `aLength`, `rLength`, `WelPara`, "
        "`abLength`, `RmsNorm`, `BUFFER_NUM`",
    }
    kernel = """
#include "../../rms_norm/arch35/rms_norm_base.h"
using namespace AscendC;
__aicore__ inline void F() {
    NormPara para;
    para.aLength = 1;
    para.abLength = 2;
    int32_t n = RmsNorm::BUFFER_NUM;
    RmsNorm(n);
}
"""
    found = census.Census(census.ApiIndex.from_headers(headers), census.DocIndex.from_pages(pages))
    found.add_text("op/op_kernel/arch35/k.h", kernel, {})  # the include does not resolve
    found.classify()
    assert _entry(found, "basic", "NormPara::aLength").status == "documented"
    assert _entry(found, "basic", "NormPara::abLength").status == "undocumented"
    assert _entry(found, "basic", "RmsNorm").status == "documented"
    assert _entry(found, "basic", "RmsNorm::BUFFER_NUM").status == "undocumented"


def test_locals_of_any_declaration_form_and_c_library_names_are_left_out() -> None:
    headers = {
        "include/x.h": "namespace AscendC { int tmp; int tmp2; int addr; float sqrt(float x); }"
    }
    pages = {"SIMD-API/基础API/其他/X.md": "# X\n`tmp` `tmp2` `addr` `sqrt`"}
    kernel = (
        "using namespace AscendC;\n"
        "__aicore__ inline float F(float s) {\n"
        "    auto addr = s; int64_t a = 0, tmp = a; float x, tmp2;\n"
        "    return sqrt(addr + tmp);\n}\n"
    )
    found = census.Census(census.ApiIndex.from_headers(headers), census.DocIndex.from_pages(pages))
    found.add_text("op/op_kernel/arch35/k.h", kernel, {})
    found.classify()
    statuses = {name: e.status for (_, name, _), e in found.entries.items()}
    assert not {"tmp", "addr", "tmp2"} & set(statuses)
    assert statuses.get("sqrt") == "cpp-std"


def test_an_overview_page_in_a_class_folder_the_950_lacks_documents_nothing() -> None:
    no = '<!-- npu="950" id1 -->\n- Ascend 950PR：不支持\n<!-- end id1 -->\n'
    pages = {
        "SIMD-API/基础API/辅助数据结构/TensorDesc/GetDim.md": no + "# GetDim\n",
        "SIMD-API/基础API/辅助数据结构/TensorDesc/TensorDesc简介.md": "# TensorDesc\n`GetDim`",
    }
    docs = census.DocIndex.from_pages(pages)
    assert "TensorDesc" not in docs.documented["basic"]
    assert "GetDim" not in docs.documented["basic"]


@pytest.mark.parametrize(
    "macro",
    [
        "#define CHECK(T) struct Has { enum { value = sizeof(T) > 1 }; };\nCHECK(int)\n",
        "#define HAS(T) struct H##T { static constexpr bool value = sizeof(T) > 1; };\nHAS(int)\n",
    ],
)
def test_what_a_macro_declares_is_kernel_local(macro: str) -> None:
    headers = {"include/x.h": "namespace AscendC { int value; }"}
    pages = {"SIMD-API/基础API/其他/X.md": "# X\n`value`"}
    kernel = "using namespace AscendC;\n" + macro
    found = census.Census(census.ApiIndex.from_headers(headers), census.DocIndex.from_pages(pages))
    found.add_text("op/op_kernel/arch35/k.h", kernel, {})
    found.classify()
    assert "value" not in {name for (_, name, _) in found.entries}


def test_a_variable_redeclared_with_another_type_takes_the_nearest_declaration() -> None:
    """``copyParams`` is an ``NdDmaParams`` in one function and a ``DataCopyExtParams`` in the
    next (layer_norm_v3): its fields there are ``DataCopyExtParams``'s (issue 25)."""
    headers = {
        "include/x.h": "namespace AscendC {\n"
        "template <typename T, int D> struct NdDmaParams { int loopInfo; T constantValue; };\n"
        "struct DataCopyExtParams { uint32_t blockCount; uint32_t blockLen; };\n}",
    }
    pages = {
        "SIMD-API/基础API/其他/X.md": "# X\n`NdDmaParams` `loopInfo` `DataCopyExtParams` "
        "`blockCount` `blockLen`"
    }
    kernel = """
using namespace AscendC;
__aicore__ inline void A() {
    AscendC::NdDmaParams<float, 2> copyParams = {info, 0};
    copyParams.loopInfo = 1;
}
__aicore__ inline void B() {
    DataCopyExtParams copyParams;
    copyParams.blockCount = 1;
    copyParams.blockLen = 4;
}
"""
    found = census.Census(census.ApiIndex.from_headers(headers), census.DocIndex.from_pages(pages))
    found.add_text("op/op_kernel/arch35/k.h", kernel, {})
    found.classify()
    names = {name for (_, name, _) in found.entries}
    assert {
        "NdDmaParams::loopInfo",
        "DataCopyExtParams::blockCount",
        "DataCopyExtParams::blockLen",
    } <= names
    assert not {"NdDmaParams::blockCount", "NdDmaParams::blockLen"} & names


def test_the_name_a_tiling_key_declaration_pastes_is_no_use() -> None:
    headers = {"include/x.h": "namespace AscendC { template <typename T> void Quantize(T x); }"}
    pages = {"SIMD-API/高阶API/量化操作/Quantize.md": "# Quantize\n"}
    kernel = (
        "ASCENDC_TPL_ARGS_DECL(Quantize, ASCENDC_TPL_UINT_DECL(mode, 2, ASCENDC_TPL_UI_LIST, 0));\n"
        "__aicore__ inline void F(float x) { AscendC::Quantize(x); }\n"
    )
    found = census.Census(census.ApiIndex.from_headers(headers), census.DocIndex.from_pages(pages))
    found.add_text("op/op_kernel/arch35/k.h", kernel.split("\n")[0] + "\n", {})
    found.classify()
    assert "Quantize" not in {name for (_, name, _) in found.entries}
    found.add_text("op/op_kernel/arch35/k2.h", kernel, {})
    found.classify()
    assert "Quantize" in {name for (_, name, _) in found.entries}
