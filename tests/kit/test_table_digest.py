"""``file_digest``: the digest every game's parser gives its table, of a file as it reads
now, read again only when the file changed (PIN asks it at every new match whether its
table is the repository's, to know whether the log must carry the table)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from throne_lib.kit import csvtable, registry
from throne_lib.kit.csvtable import file_digest


@pytest.mark.parametrize("game", sorted(g.name for g in registry.games() if g.card_tables))
def test_the_digest_is_the_parsers_hash(game: str, tmp_path: Path) -> None:
    g = registry.get(game)
    for path in g.card_tables:
        copy = tmp_path / path.name
        shutil.copy(path, copy)
        assert file_digest(copy) == csvtable.table_digest(path.read_text(encoding="utf-8"))
    main = tmp_path / g.card_tables[0].name
    assert file_digest(main) == g.load_table(main).hash  # the game's parser agrees


def test_a_changed_file_is_read_again_and_an_unchanged_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.csv"
    path.write_text("id,name\na,甲\n", encoding="utf-8")
    first = file_digest(path)
    reads: list[Path] = []
    real = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    assert file_digest(path) == first and reads == []
    path.write_text("id,name\na,乙\n", encoding="utf-8")  # another size: another stamp
    assert file_digest(path) not in (first, None) and reads == [path]
    path.write_text("id,name\na,乙", encoding="utf-8")  # cut short: not a table
    assert file_digest(path) is None
    path.unlink()
    assert file_digest(path) is None
