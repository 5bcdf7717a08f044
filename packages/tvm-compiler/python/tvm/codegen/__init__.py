"""tvm.codegen: code generators that turn lowered IRModules into loadable libraries."""
