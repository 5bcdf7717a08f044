"""tvm.relax.frontend: importers that turn other frameworks' models into Relax IRModules."""
