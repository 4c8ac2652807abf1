"""Change detection for the data computed at development time and shipped in the package.

The parser tables, the lowered prelude (``smithy2cfn/data/precomputed``) and the compiled
meta-schema validator (:mod:`smithy2cfn.emit.metaschema_compiled`) each record the key of
the sources they were computed from; at run time a key that no longer matches (a developer
edited the grammar, a prelude file or a front-end module without running
``python -m smithy2cfn.precompute``) makes the program compute from source instead.

The key detects edits; it is not a defence against tampering (whoever can rewrite a shipped
data file can rewrite the code beside it). So it is CRC-32 and Adler-32 (:mod:`zlib`, which
every run imports anyway) over the length-prefixed parts: 64 bits that any edit changes,
computed without loading OpenSSL, whose import (``hashlib``) cost a small build some
7 ms of its start-up.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable


def content_key(parts: Iterable[bytes | str]) -> str:
    """The key of ``parts`` (``str`` parts are UTF-8 encoded), e.g.
    ``"crc32+adler32:89abcdef01234567:5120"`` (the last field: the total length in bytes).

    Each part is prefixed with its length, so moving bytes from one part to the next
    changes the key."""
    crc, adler, total = 0, 1, 0
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        head = len(data).to_bytes(8, "big")
        crc = zlib.crc32(data, zlib.crc32(head, crc))
        adler = zlib.adler32(data, zlib.adler32(head, adler))
        total += len(data)
    return f"crc32+adler32:{crc:08x}{adler:08x}:{total}"


__all__ = ["content_key"]
