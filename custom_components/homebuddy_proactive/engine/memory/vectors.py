"""Memory vectors: quantised embeddings and the in-memory index a retrieval searches first.

A vector is stored (``storage/memory_vectors.py``) as int8 bytes, its unit vector scaled so its
largest component is ±127 (768 bytes for 768 dimensions, a quarter of float32), with its sign
bits (96 bytes). The index keeps only the sign bits, per client, as an ``(n, bytes)`` uint8
matrix: a query's Hamming distance to each of the client's and ``global``'s rows comes from
SimSIMD's binary kernels (``simsimd.cdist``, AVX-512/AVX2/NEON popcounts), and the
:data:`RERANK` nearest are re-ranked by their int8 cosine read back from SQLite (which also
drops a memory deleted meanwhile). Sign bits keep the index small enough for a Pi (about
20 MB at 100,000 memories of 768 dimensions, where the int8 vectors would add several times
that and float32 far more) and SimSIMD's popcounts fast (about a millisecond for the Hamming
distances and their selection at that size: ``scripts/bench/bench_memory.py --vectors``).
``sqlite-vec`` is not an option: the Pythons here cannot load SQLite extensions. Above
:data:`INLINE_ROWS` rows :meth:`VectorIndex.nearest` runs in an executor thread, so the loop
never blocks, while SQLite's thread searches BM25."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt
import simsimd

from ..storage.memory_sql import CODES

# Hamming candidates re-ranked by their int8 cosine.
RERANK: Final = 200
# Up to this many rows the sign-bit pass runs on the loop (16,384 rows: 0.2-0.4 ms with its
# selection, less than a trip to an executor thread); above, in an executor thread.
INLINE_ROWS: Final = 16384
_BITS: Final = 64

Bits = npt.NDArray[np.uint64]


def quantise(vector: npt.ArrayLike) -> tuple[bytes, bytes] | None:
    """The int8 bytes and sign bits of a vector; None for a zero or non-finite one."""
    values = np.asarray(vector, dtype=np.float32)
    peak = float(np.max(np.abs(values))) if values.size else 0.0
    if not np.isfinite(values).all() or peak == 0.0:
        return None
    scaled = np.rint(values / peak * 127).astype(np.int8)
    return scaled.tobytes(), sign_bits(values).tobytes()


def sign_bits(values: npt.NDArray[np.float32]) -> Bits:
    """The sign bits of a vector as uint64 words (padded with zero bits)."""
    padded = np.zeros(-(-values.size // _BITS) * _BITS, dtype=bool)
    padded[: values.size] = values > 0
    return np.packbits(padded).view(np.uint64)


def unit(vector: npt.ArrayLike) -> npt.NDArray[np.float32] | None:
    """The vector at unit length, None for a zero or non-finite one."""
    values = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(values))
    if not np.isfinite(norm) or norm == 0.0:
        return None
    return values / norm


def cosines(query: npt.NDArray[np.float32], stored: Sequence[bytes]) -> npt.NDArray[np.float32]:
    """The cosine between a unit query and each stored int8 vector (0 for a wrong length)."""
    fitting = [n for n, blob in enumerate(stored) if len(blob) == query.size]
    values = np.zeros(len(stored), dtype=np.float32)
    if not fitting:
        return values
    joined = (
        b"".join(stored) if len(fitting) == len(stored) else b"".join(stored[n] for n in fitting)
    )
    matrix = np.frombuffer(joined, dtype=np.int8).reshape(len(fitting), query.size)
    matrix = matrix.astype(np.float32)
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix))
    values[fitting] = (matrix @ query) / np.where(norms > 0, norms, 1.0)
    return values


@dataclass
class _ClientVectors:
    """One client's sign bits: a matrix (a row of bytes per vector), plus rows added since it
    was last built."""

    keys: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    bits: npt.NDArray[np.uint8] | None = None
    added: dict[int, Bits] = field(default_factory=dict)
    removed: set[int] = field(default_factory=set)

    def built(self, words: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """The matrix with every change applied (rebuilt only after a change)."""
        width = words * _BITS // 8
        if self.bits is None:
            self.bits = np.zeros((0, width), dtype=np.uint8)
        if self.added or self.removed:
            gone = self.removed | set(self.added)
            keep = ~np.isin(self.keys, np.fromiter(gone, dtype=np.int64, count=len(gone)))
            new_keys = np.fromiter(self.added, dtype=np.int64, count=len(self.added))
            new_bits = (
                np.stack(list(self.added.values())).view(np.uint8)
                if self.added
                else np.zeros((0, width), dtype=np.uint8)
            )
            self.keys = np.concatenate((self.keys[keep], new_keys))
            self.bits = np.ascontiguousarray(np.concatenate((self.bits[keep], new_bits)))
            self.added.clear()
            self.removed.clear()
        return self.keys, self.bits


class VectorIndex:
    """The sign bits of one embedding model's vectors, by client.

    Writers (the loop) only queue their changes and never wait; :meth:`nearest` (the loop for
    small indexes, an executor thread above :data:`INLINE_ROWS`) applies them under its lock.
    """

    def __init__(self) -> None:
        """An empty index (dimensions fixed by the first vector)."""
        self._lock = threading.Lock()
        self._clients: dict[str, _ClientVectors] = {}
        self._owners: dict[int, str] = {}
        # (key, client id, bits) to add, or (key, None, None) to discard; deque appends and
        # pops are atomic, so the loop never takes the lock to write.
        self._changes: deque[tuple[int, str | None, Bits | None]] = deque()
        # Vectors added per client (an upper bound: replacements and discards are not
        # subtracted), read without the lock to choose the loop or a thread.
        self._added: dict[str, int] = {}
        self.words: int | None = None

    def __len__(self) -> int:
        """How many vectors the index holds."""
        with self._lock:
            self._apply()
            return len(self._owners)

    def add(self, rows: Iterable[tuple[int, str, bytes]]) -> None:
        """Add or replace vectors: (search key, client id, sign bits)."""
        for key, client_id, blob in rows:
            bits = np.frombuffer(blob, dtype=np.uint64)
            if self.words is None:
                self.words = int(bits.size)
            if bits.size != self.words:
                continue  # another model's vector; never mixed into this index
            self._changes.append((key, client_id, bits))
            self._added[client_id] = self._added.get(client_id, 0) + 1

    def discard(self, keys: Iterable[int]) -> None:
        """Forget vectors (their memories are gone or changed)."""
        for key in keys:
            self._changes.append((key, None, None))

    def rows(self, client_ids: Sequence[str]) -> int:
        """About how many vectors the clients have (never fewer)."""
        return sum(self._added.get(client_id, 0) for client_id in client_ids)

    def _apply(self) -> None:
        """Apply the queued changes (the lock is held)."""
        while self._changes:
            key, client_id, bits = self._changes.popleft()
            owner = self._owners.pop(key, None)
            if owner is not None:
                previous = self._clients[owner]
                previous.added.pop(key, None)
                previous.removed.add(key)
            if client_id is not None and bits is not None:
                client = self._clients.setdefault(client_id, _ClientVectors())
                client.removed.discard(key)
                client.added[key] = bits
                self._owners[key] = client_id

    def nearest(
        self, query: npt.NDArray[np.float32], client_ids: Sequence[str], codes: Sequence[int]
    ) -> list[int]:
        """Keys of the clients' :data:`RERANK` vectors nearest the query by Hamming distance,
        nearest first, among the stores of ``codes``."""
        with self._lock:
            self._apply()
            if self.words is None:
                return []
            probe = sign_bits(query)
            if probe.size != self.words:
                return []
            wanted = None if len(codes) >= CODES else np.asarray(codes, dtype=np.int64)
            all_keys, all_distances = [], []
            for client_id in client_ids:
                client = self._clients.get(client_id)
                if client is None:
                    continue
                keys, bits = client.built(self.words)
                if not keys.size:
                    continue
                # The number of differing bits of each row: exact (float64), as uint16 (the
                # partition below is three times faster on it).
                counted = simsimd.cdist(
                    probe.view(np.uint8)[np.newaxis], bits, metric="hamming", dtype="bin8"
                )
                distances = np.asarray(counted)[0].astype(np.uint16)
                if wanted is not None:
                    kept = np.isin(keys % CODES, wanted)
                    keys, distances = keys[kept], distances[kept]
                # Each client's nearest rows first: a row within the RERANK-th smallest
                # distance of all is within its client's (never below that of all), so the
                # clients' nearest together give the same rows in the same order as every
                # row of every client joined (which took 0.3 ms more at 100k rows).
                keys, distances = _nearest_rows(keys, distances)
                all_keys.append(keys)
                all_distances.append(distances)
        if not all_keys:
            return []
        keys, distances = _nearest_rows(np.concatenate(all_keys), np.concatenate(all_distances))
        order = np.argsort(distances, kind="stable")[:RERANK]
        return [int(key) for key in keys[order]]


def _nearest_rows(
    keys: npt.NDArray[np.int64], distances: npt.NDArray[np.uint16]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint16]]:
    """The rows within the :data:`RERANK`-th smallest distance (ties included), in order."""
    if keys.size <= RERANK:
        return keys, distances
    # The RERANK-th smallest distance (a partition of the distances alone: 0.06 ms at 100k
    # rows, a histogram and its running sum 0.25 ms), then the rows within it.
    cutoff = np.partition(distances, RERANK - 1)[RERANK - 1]
    chosen = np.flatnonzero(distances <= cutoff)
    return keys[chosen], distances[chosen]
