"""A cheap look at an ELF shared library before the dynamic loader maps it: a file cut short
(a partial copy or download) is mapped past its end by dlopen and kills the process with
SIGBUS when touched, so it is refused here with a ValueError instead."""

from __future__ import annotations

import struct

_MAGIC = b"\x7fELF"
_PT_LOAD = 1


def check_elf_complete(who: str, path: str) -> None:
    """ValueError naming who and path when the ELF file at path ends before the headers or
    loadable segments it declares; files that are not ELF are left to the loader."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != _MAGIC:
            return
        f.seek(0, 2)
        size = f.tell()
        if len(head) < 52 or head[4] not in (1, 2) or head[5] not in (1, 2):
            raise ValueError(f"{who}: {path!r} is not a complete ELF file ({size} bytes)")
        is64, order = head[4] == 2, "<" if head[5] == 1 else ">"
        if is64 and len(head) < 64:
            raise ValueError(f"{who}: {path!r} is not a complete ELF file ({size} bytes)")
        if is64:
            phoff, shoff = struct.unpack_from(order + "QQ", head, 32)
            phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", head, 54)
        else:
            phoff, shoff = struct.unpack_from(order + "II", head, 28)
            phentsize, phnum, shentsize, shnum = struct.unpack_from(order + "HHHH", head, 42)

        def refuse(what: str, end: int):
            raise ValueError(
                f"{who}: {path!r} is truncated: its {what} end at byte {end}, the file has "
                f"{size} bytes (a partial copy? export the library again)"
            )

        if phnum and phentsize < (56 if is64 else 32):
            raise ValueError(f"{who}: {path!r} is not a valid ELF file (program header size)")
        if phoff + phentsize * phnum > size:
            refuse("program headers", phoff + phentsize * phnum)
        if shnum and shoff + shentsize * shnum > size:
            refuse("section headers", shoff + shentsize * shnum)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    for i in range(phnum):
        entry = table[i * phentsize : (i + 1) * phentsize]
        if is64:
            p_type, _flags, p_offset, _vaddr, _paddr, p_filesz = struct.unpack_from(
                order + "IIQQQQ", entry
            )
        else:
            p_type, p_offset, _vaddr, _paddr, p_filesz = struct.unpack_from(order + "IIIII", entry)
        if p_type == _PT_LOAD and p_offset + p_filesz > size:
            refuse(f"loadable segment {i}'s bytes", p_offset + p_filesz)
