"""The type stubs match the module: every public name of the native module has a stub and every stub a name,
class by class and member by member (a stub's members include those of the stub-only bases the game modules
share); everything public has a docstring; and, where mypy is installed, its ``stubtest`` agrees (signatures,
types of attributes, ``__all__``)."""

import ast
import importlib.util
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import tabula

PACKAGE = Path(tabula.__file__).parent
STUBS = PACKAGE / "_tabula"
NATIVE = [tabula._tabula] + [getattr(tabula._tabula, name) for name in ("chess", "connect4", "go", "gomoku", "kmc",
                                                                        "tictactoe", "xiangqi")]


def stub_path(module):
    name = module.__name__.rsplit(".", 1)[-1]
    return STUBS / "__init__.pyi" if module is tabula._tabula else STUBS / f"{name}.pyi"


def stub_tree(path):
    return ast.parse(path.read_text(), filename=str(path))


def public(names):
    return {n for n in names if not n.startswith("_")}


def module_names(tree):
    """The names a stub defines or re-exports (``import x as x``), public ones only."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname for a in node.names if a.asname and a.asname == a.name)
    return public(names)


def classes(tree):
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def class_members(node, path):
    """A stub class's public members, with those of its bases in the stubs (``_game.Position``)."""
    members = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef):
            members.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            members.add(item.target.id)
    for base in node.bases:
        if isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
            base_path, base_name = STUBS / f"{base.value.id}.pyi", base.attr
        elif isinstance(base, ast.Name):
            base_path, base_name = path, base.id
        else:
            continue
        base_node = classes(stub_tree(base_path)).get(base_name)
        if base_node is not None:
            members |= class_members(base_node, base_path)
    return public(members)


def runtime_members(cls):
    return public(name for name in dir(cls) if not hasattr(object, name))


@pytest.mark.parametrize("module", NATIVE, ids=lambda m: m.__name__)
def test_every_public_name_has_a_stub_and_every_stub_a_name(module):
    tree = stub_tree(stub_path(module))
    assert module_names(tree) == public(dir(module))


@pytest.mark.parametrize("module", NATIVE, ids=lambda m: m.__name__)
def test_every_class_has_its_members_in_the_stub_and_no_more(module):
    path = stub_path(module)
    stubbed = classes(stub_tree(path))
    if module is tabula._tabula:
        stubbed["Solved"] = classes(stub_tree(STUBS / "_game.pyi"))["Solved"]
    for name in public(dir(module)):
        cls = getattr(module, name)
        if not inspect.isclass(cls) or issubclass(cls, BaseException):
            continue
        assert runtime_members(cls) == class_members(stubbed[name], path), f"{module.__name__}.{name}"


def test_each_game_is_importable_by_its_stub_name():
    for name in ("chess", "connect4", "go", "gomoku", "tictactoe", "xiangqi"):
        assert (PACKAGE / f"{name}.pyi").is_file()
        assert importlib.import_module(f"tabula.{name}") is importlib.import_module(f"tabula._tabula.{name}")
    assert (PACKAGE / "py.typed").is_file()


def documented(objects):
    for owner, name, value in objects:
        # Its own docstring, not one inherited (as inspect.getdoc would take a base class's method's).
        if not (getattr(value, "__doc__", None) or "").strip():
            yield f"{owner}.{name}"


def adapters():
    """The adapters whose peers are installed."""
    for name in ("pettingzoo", "python_chess"):
        try:
            yield importlib.import_module(f"tabula.{name}")
        except ImportError:
            pass


ADAPTERS = list(adapters())


def everything_public():
    for module in NATIVE + [tabula, tabula.kmc, *ADAPTERS]:
        yield module.__name__, "", module
        for name in public(dir(module)):
            value = getattr(module, name)
            if inspect.ismodule(value) or isinstance(value, (int, str)):
                continue
            if module in ADAPTERS and getattr(value, "__module__", None) != module.__name__:
                continue  # what an adapter imports (numpy, PettingZoo's classes)
            yield module.__name__, name, value
            if inspect.isclass(value) and not issubclass(value, BaseException):
                for member in runtime_members(value) & set(vars(value)):
                    attribute = inspect.getattr_static(value, member)
                    if not isinstance(attribute, (int, str)):
                        yield f"{module.__name__}.{name}", member, attribute


def test_everything_public_has_a_docstring():
    assert list(documented(everything_public())) == []


def test_mypys_stubtest_agrees(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install mypy): the stubs are checked by name only")
    allowlist = Path(__file__).with_name("stubtest_allowlist.txt")
    run = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "tabula", "--allowlist", str(allowlist)],
        capture_output=True,
        text=True,
        # Elsewhere than the package's directory: mypy finds the package as installed (py.typed).
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
