"""Markers, block kinds and default type maps of tvm-ffi-stubgen (upstream's names and values)."""

from __future__ import annotations


class MarkerSyntax:
    """The directive markers inside one comment syntax (`#` for Python sources).

    Every directive is a one-line comment: `# tvm-ffi-stubgen(begin): <kind>/<param>` opens a
    generated block, `# tvm-ffi-stubgen(end)` closes it, `# tvm-ffi-stubgen(<name>): <payload>`
    is a one-line directive and `# tvm-ffi-stubgen(skip-file)` leaves the whole file alone.
    """

    def __init__(self, comment: str) -> None:
        self.comment = comment

    def __repr__(self) -> str:
        return f"MarkerSyntax(comment={self.comment!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MarkerSyntax) and other.comment == self.comment

    def __hash__(self) -> int:
        return hash(self.comment)

    @property
    def prefix(self) -> str:
        """What every directive line starts with: `# tvm-ffi-stubgen(`."""
        return f"{self.comment} tvm-ffi-stubgen("

    @property
    def begin(self) -> str:
        """The marker that opens a generated block."""
        return f"{self.prefix}begin):"

    @property
    def end(self) -> str:
        """The marker that closes a generated block."""
        return f"{self.prefix}end)"

    @property
    def ty_map(self) -> str:
        """The `ty-map` directive: `# tvm-ffi-stubgen(ty-map): A.B -> C.D`."""
        return self.directive("ty-map")

    @property
    def import_object(self) -> str:
        """The `import-object` directive: `<full name>;<type checking only>;<alias>`."""
        return self.directive("import-object")

    @property
    def skip_file(self) -> str:
        """The whole-file opt-out directive."""
        return f"{self.prefix}skip-file)"

    def directive(self, name: str) -> str:
        """The marker of the one-line directive `name`."""
        return f"{self.prefix}{name}):"


PYTHON_SYNTAX = MarkerSyntax(comment="#")
RUST_SYNTAX = MarkerSyntax(comment="//")
SYNTAX_BY_EXT: dict[str, MarkerSyntax] = {
    ".py": PYTHON_SYNTAX,
    ".pyi": PYTHON_SYNTAX,
    ".rs": RUST_SYNTAX,
}
#: What a folder walk picks up by default: the Python generator's sources.
SOURCE_EXTS = frozenset({".py", ".pyi"})

# Upstream's marker strings as plain constants.
STUB_PREFIX = PYTHON_SYNTAX.prefix
STUB_BEGIN = PYTHON_SYNTAX.begin
STUB_END = PYTHON_SYNTAX.end
STUB_TY_MAP = PYTHON_SYNTAX.ty_map
STUB_IMPORT_OBJECT = PYTHON_SYNTAX.import_object
STUB_SKIP_FILE = PYTHON_SYNTAX.skip_file

#: The block kinds `# tvm-ffi-stubgen(begin): ...` may open (None: a plain source line).
STUB_BLOCK_KINDS = ("global", "object", "import-section", "directive", "export", "__all__", None)

#: One-line directives the pipeline reads; `import-object` is the Python generator's.
PIPELINE_DIRECTIVE_KINDS = frozenset({"ty-map", "prefix", "skip"})
PYTHON_DIRECTIVE_KINDS = frozenset({"import-object"})

#: Type keys that tvm_ffi binds itself (never given an object block of their own).
BUILTIN_TYPE_KEYS = frozenset(
    {
        "ffi.BigInt",
        "ffi.Bytes",
        "ffi.Error",
        "ffi.Function",
        "ffi.Object",
        "ffi.OpaquePyObject",
        "ffi.SmallBytes",
        "ffi.SmallStr",
        "ffi.String",
        "ffi.Tensor",
    }
)

#: Global function name -> the name its stub is written under (none renamed by default).
FN_NAME_MAP: dict[str, str] = {}

# ANSI terminal colours of the command's messages.
TERM_RESET = "\033[0m"
TERM_BOLD = "\033[1m"
TERM_BLACK = "\033[30m"
TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_BLUE = "\033[34m"
TERM_MAGENTA = "\033[35m"
TERM_CYAN = "\033[36m"
TERM_WHITE = "\033[37m"

DOC_URL = "https://tvm.apache.org/ffi/packaging/stubgen.html"
