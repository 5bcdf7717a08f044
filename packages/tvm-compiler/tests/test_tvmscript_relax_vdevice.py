# Virtual devices: I.module_global_infos({"vdevice": [I.vdevice(...)]}), R.Tensor(..., vdevice=)
# naming them, and IRModule.global_infos; parsed and printed as upstream.
import pytest
import tvm
import tvm.testing
from tvm import relax
from tvm.script import from_source
from tvm.script import ir as I
from tvm.script import relax as R
from tvmscript_checks import assert_round_trip, rendered_error


@I.ir_module
class Devices:
    I.module_attrs({"attr": 10})
    I.module_global_infos(
        {"vdevice": [I.vdevice("llvm"), I.vdevice("llvm", 1), I.vdevice("c", 0, "local")]}
    )

    @R.function
    def foo(
        x: R.Tensor((2, 3), "float32", "llvm:1"), y: R.Tensor((2, 3), "float32", "c:0:local")
    ) -> R.Tensor((2, 3), "float32", "llvm"):
        return x

    @R.function
    def bar(x: R.Tensor((2, 3), "float32")):
        return x


LLVM = '{"keys": ["cpu"], "kind": "llvm", "tag": ""}'
C = '{"keys": ["cpu"], "kind": "c", "tag": ""}'
DEVICES = [f'I.vdevice({LLVM}, 0, "global")', f'I.vdevice({LLVM}, 1, "global")']
DEVICES.append(f'I.vdevice({C}, 0, "local")')
FOO_PARAMS = [
    'x: R.Tensor((2, 3), dtype="float32", vdevice="llvm:1:global")',
    'y: R.Tensor((2, 3), dtype="float32", vdevice="c:0:local")',
]
FOO_RET = 'R.Tensor((2, 3), dtype="float32", vdevice="llvm:0:global")'
DEVICES_TEXT = f"""# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({{"attr": 10}})
    I.module_global_infos({{"vdevice": [{", ".join(DEVICES)}]}})
    @R.function
    def bar(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        return x

    @R.function
    def foo({", ".join(FOO_PARAMS)}) -> {FOO_RET}:
        return x"""


def test_struct_info_names_the_module_s_virtual_devices():
    devices = Devices.global_infos["vdevice"]
    assert [(d.target.kind.name, d.vdevice_id, d.memory_scope) for d in devices] == [
        ("llvm", 0, "global"),
        ("llvm", 1, "global"),
        ("c", 0, "local"),
    ]
    x, y = Devices["foo"].params
    assert x.struct_info.vdevice is devices[1]  # "llvm:1": the second device of kind llvm
    assert y.struct_info.vdevice is devices[2]
    assert Devices["foo"].ret_struct_info.vdevice is devices[0]  # "llvm": the first
    assert isinstance(devices[0], relax.VDevice) and isinstance(devices[0], tvm.ir.GlobalInfo)


def test_global_infos_print_as_upstream_and_round_trip():
    assert_round_trip(Devices, DEVICES_TEXT)


def test_the_index_counts_devices_of_the_kind_not_their_ids():
    @I.ir_module
    class Ids:
        I.module_global_infos({"vdevice": [I.vdevice("llvm", 5), I.vdevice("llvm", 3)]})

        @R.function
        def main(x: R.Tensor((4,), "float32", "llvm:1")):
            return x

    assert Ids["main"].params[0].struct_info.vdevice.vdevice_id == 3
    assert 'vdevice="llvm:1:global"' in Ids.script()
    tvm.ir.assert_structural_equal(from_source(Ids.script()), Ids)


def test_structural_equality_sees_the_global_infos():
    other = Devices.clone()
    other.update_global_info(
        "vdevice", [I.vdevice("llvm"), I.vdevice("llvm", 2), I.vdevice("c", 0, "local")]
    )
    assert not tvm.ir.structural_equal(Devices, other)
    same = Devices.clone()
    assert same.update_global_info("vdevice", list(Devices.global_infos["vdevice"])) is None
    assert tvm.ir.structural_equal(Devices, same)
    # Deriving a module keeps them.
    assert Devices.with_attr("k", 1).global_infos == Devices.global_infos
    assert Devices.without_function("bar").global_infos == Devices.global_infos


def test_a_module_s_function_order_does_not_change_its_structure():
    # foo was written before bar, the printout sorts them: both are the same module.
    assert [gv.name_hint for gv in Devices.functions] == ["foo", "bar"]
    parsed = from_source(Devices.script())
    assert [gv.name_hint for gv in parsed.functions] == ["bar", "foo"]
    assert tvm.ir.structural_hash(parsed) == tvm.ir.structural_hash(Devices)


def test_vdevice_and_global_info_arguments_are_checked():
    with pytest.raises(ValueError, match="VDevice: vdevice_id must be an int >= 0, got -1"):
        relax.VDevice("llvm", -1)
    with pytest.raises(TypeError, match="VDevice: target must be a Target, a str or a dict"):
        relax.VDevice(3)
    with pytest.raises(TypeError, match=r"global_infos\['vdevice'\] holds GlobalInfo objects"):
        tvm.IRModule({}, global_infos={"vdevice": ["llvm"]})
    with pytest.raises(TypeError, match=r"global_infos\['vdevice'\] must be a list"):
        tvm.IRModule({}, global_infos={"vdevice": I.vdevice("llvm")})


HEAD = (
    "from tvm.script import ir as I\nfrom tvm.script import relax as R\n"
    "@I.ir_module\nclass Module:\n"
    '    I.module_global_infos({"vdevice": [I.vdevice("llvm")]})\n'
    "    @R.function\n"
)


def _rendered_param(annotation: str) -> str:
    return rendered_error(HEAD + f"    def main(x: {annotation}):\n        return x\n")


def test_naming_an_undeclared_virtual_device_is_a_diagnostic():
    assert _rendered_param('R.Tensor((4,), "float32", "cuda")') == (
        "error: R.Tensor: the module declares no virtual devices of kind 'cuda'; "
        'declare them with I.module_global_infos({"vdevice": [I.vdevice(...)]})\n'
        " --> <string>:7:17\n   |\n"
        ' 7 |     def main(x: R.Tensor((4,), "float32", "cuda")):\n'
        "   |                 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )
    assert _rendered_param('R.Tensor((4,), "float32", "llvm:1")').startswith(
        "error: R.Tensor: device_index 1 is out of range: the module declares "
        "1 matching virtual devices\n"
    )
    assert _rendered_param('R.Tensor((4,), "float32", "llvm:x")').startswith(
        'error: R.Tensor: vdevice \'llvm:x\' must look like "kind", "kind:index" or '
        '"kind:index:scope"\n'
    )
    assert _rendered_param('R.Tensor((4,), "float32", "llvm:0:local")').startswith(
        "error: R.Tensor: vdevice 'llvm:0:local': virtual device 0 of kind 'llvm' has memory "
        "scope 'global'\n"
    )


def test_a_malformed_global_infos_call_is_a_diagnostic():
    src = (
        "from tvm.script import ir as I\nfrom tvm.script import relax as R\n"
        "@I.ir_module\nclass Module:\n"
        '    I.module_global_infos({"vdevice": "llvm"})\n'
    )
    assert rendered_error(src).startswith(
        "error: I.module_global_infos: global_infos['vdevice'] must be a list, got 'llvm'\n"
        " --> <string>:5:5\n"
    )


if __name__ == "__main__":
    tvm.testing.main()


@I.ir_module
class _DevicesWithWork:
    I.module_global_infos({"vdevice": [I.vdevice("llvm")]})

    @R.function
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            y = R.add(x, x)
            z = R.nn.relu(y)
            R.output(z)
        return z

    @R.function(private=True)
    def unused(x: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        return x


@pytest.mark.parametrize(
    "passes",
    [
        ["LegalizeOps"],
        ["LegalizeOps", "AnnotateTIROpPattern", "FuseOps", "FuseTIR"],
        ["LegalizeOps", "FoldConstant"],
        ["DeadCodeElimination"],
        ["LambdaLift"],
        ["LiftTransformParams"],
        ["LegalizeOps", "ToNonDataflow", "CallTIRRewrite", "ComputePrimValue", "VMShapeLower"],
    ],
    ids=lambda names: "+".join(names),
)
def test_passes_keep_the_module_s_global_infos(passes):
    # Every pass that rebuilds the module must carry its virtual devices along, or a later pass
    # finds no device that a tensor's vdevice names.
    mod = _DevicesWithWork
    for name in passes:
        pass_ = getattr(relax.transform, name, None) or getattr(relax.backend, name)
        mod = pass_()(mod)
    assert mod.global_infos.keys() == {"vdevice"}
    assert tvm.ir.structural_equal(
        list(mod.global_infos["vdevice"]), list(_DevicesWithWork.global_infos["vdevice"])
    )
