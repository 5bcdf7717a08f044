"""List and Dict under hostile use: releases that re-enter the container, self-holding values."""

import pytest
from native_build import run_python
from tvm_ffi import Dict, List

# Each removal releases an object whose __del__ refills the container it is leaving: the
# container must be whole again before that code runs (it crashed the interpreter before).
_REENTRANT_RELEASE = """
import sys
from tvm_ffi import Dict, List

class Refill:
    def __init__(self, target, how):
        self.target, self.how = target, how
    def __del__(self):
        self.how(self.target)

def grow_list(lst):
    lst.clear()
    for i in range(1000):
        lst.append(i)

def grow_dict(d):
    for i in range(1000):
        d[i] = i

case = sys.argv[1]
if case == "list_del_slice":
    lst = List([0, 1, 2]); lst.append(Refill(lst, grow_list)); lst.append(5)
    del lst[0:5]
    print(len(lst), lst[999])
elif case == "list_set_slice":
    lst = List([0, 1, 2]); lst.append(Refill(lst, grow_list)); lst.append(5)
    lst[0:5] = ["a", "b"]
    print(len(lst), lst[999])
elif case == "list_del_item":
    lst = List([0, 1, 2]); lst.append(Refill(lst, grow_list)); lst.append(5)
    del lst[3]
    print(len(lst), lst[999])
elif case == "dict_del":
    d = Dict({"a": 1}); d["b"] = Refill(d, grow_dict); d["c"] = 3
    del d["b"]
    print(len(d), d[999], d["c"])
elif case == "dict_pop":
    d = Dict({"a": 1}); d["b"] = Refill(d, grow_dict); d["c"] = 3
    d.pop("b")
    print(len(d), d[999], d["c"])
"""


@pytest.mark.parametrize(
    "case, expected",
    [
        ("list_del_slice", "1000 999"),
        ("list_set_slice", "1000 999"),
        ("list_del_item", "1000 999"),
        ("dict_del", "1002 999 3"),
        ("dict_pop", "1002 999 3"),
    ],
)
def test_release_that_refills_the_container_leaves_it_whole(case, expected):
    out = run_python(_REENTRANT_RELEASE, case)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[0] == expected


def test_list_holding_itself_equals_itself():
    lst = List([1, 2])
    lst.append(lst)
    assert lst == lst and not (lst != lst)  # RecursionError before, as list gives True
    assert lst != List([1, 2]) and List([1]) == List([1])


def test_dict_holding_itself_equals_itself():
    d = Dict({"a": 1})
    d["self"] = d
    assert d == d and not (d != d)
    assert d != Dict({"a": 1}) and Dict({"a": 1}) == {"a": 1}
