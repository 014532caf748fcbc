# Makes ids.json, the token ids tests/load/bpe_tokenizer_test.cpp holds
# BpeTokenCounter::encode to, token for token, for the fixtures gpt2.json,
# llama3.json and qwen2.json on a corpus with non-ASCII text (accents, CJK,
# emoji, combining marks, scripts without spaces).
#
# Hugging Face `tokenizers` cannot be installed on the development machine (no
# PyPI, no Debian package), so the ids come from a reference written here in
# Python: each tokenizer.json's split pattern run by the `regex` module (which
# knows \p{L}, \p{N} and look-ahead as Oniguruma does), GPT-2's byte-to-unicode
# table, and the merge loop of GPT-2's encoder.py (the lowest-ranked pair
# first, every occurrence). Before writing, the reference is checked against
# ref.json, whose counts the real library made (make_ref.py): every count of
# every fixture must agree, or nothing is written. On a machine that has the
# library, `python3 make_ids.py --check-hf` also compares every id with
# tokenizers' own.
# Run: python3 make_ids.py (needs `regex`), from this folder.
import json
import sys

import regex

GPT2 = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""

CORPUS = [
    "Hello world, it's 12345  ok\n",
    "café — naïve résumé 東京 🙂 done",
    "Crème brûlée à la française, s'il vous plaît.",
    "Ångström Øresund Łódź Šibenik Ýmir ĳssel",
    "cafe\u0301 nai\u0308ve: combining accents after the letter",
    "東京都渋谷区で会いましょう。明日は晴れるでしょうか？",
    "中文分词没有空格，标点符号：“引号”、《书名号》……",
    "한국어 문장도 있습니다. 안녕하세요!",
    "Emoji: 🙂😀👍🏽 👨‍👩‍👧‍👦 🇫🇷 ❤️ ✨ 1️⃣",
    "Привет, мир! «quote» ½ ² ©2024 — 你好，世界。",
    "Ελληνικά: Καλημέρα κόσμε; αβγ ΑΒΓ",
    "العربية: مرحبا بالعالم ١٢٣ ٤٥٦",
    "हिन्दी में लिखा गया वाक्य। १२३४",
    "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
    "Numbers: ٣ ৫ ๑๒ Ⅻ ⅻ ① ¼ 𝟘𝟙𝟚 ３４５ 2024-12-01 3.14159",
    "Full\u3000width\u3000spaces and\u00a0no-break\u2009thin\u202fspaces",
    "tabs\tand\r\nwindows\r\n\r\nlines  \n  trailing   ",
    "Don't WE'LL they'RE I'm O'Neil l'homme",
    "math ∑∫√∞ ≤≥ ≠ → ⇒ ∀x∈ℝ: x² ≥ 0",
    "code: def f(x):\n    return {'a': x**2}  # ünïcödé comment\n",
    "mixed日本語English한국어123中文",
    "zero\u200bwidth\u200djoiner\ufeffbom",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕓𝕠𝕝𝕕 𝒮𝒸𝓇𝒾𝓅𝓉",
]


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


class Reference:
    def __init__(self, path):
        doc = json.load(open(path, encoding="utf-8"))
        model = doc["model"]
        self.vocab = model["vocab"]
        self.ranks = {}
        for i, m in enumerate(model["merges"]):
            a, b = m.split(" ", 1) if isinstance(m, str) else m
            self.ranks[(a, b)] = i
        pre = doc["pre_tokenizer"]
        self.pattern = GPT2
        for p in pre.get("pretokenizers", [pre]):
            if p["type"] == "Split":
                self.pattern = p["pattern"]["Regex"]
        self.rx = regex.compile(self.pattern)
        self.byte = bytes_to_unicode()

    def bpe(self, word):
        parts = [self.byte[b] for b in word.encode("utf-8")]
        while len(parts) > 1:
            pairs = [(self.ranks.get((parts[i], parts[i + 1]), 1 << 62), i) for i in range(len(parts) - 1)]
            rank, first = min(pairs)  # the lowest rank, leftmost
            if rank == 1 << 62:
                break
            a, b = parts[first], parts[first + 1]
            merged, i = [], 0
            while i < len(parts):
                if i + 1 < len(parts) and parts[i] == a and parts[i + 1] == b:
                    merged.append(a + b)
                    i += 2
                else:
                    merged.append(parts[i])
                    i += 1
            parts = merged
        return [self.vocab.get(p, -1) for p in parts]

    def encode(self, text):
        ids = []
        for piece in self.rx.findall(text):
            ids += self.bpe(piece)
        return ids


def main():
    names = ["gpt2", "llama3", "qwen2"]
    refs = {n: Reference(n + ".json") for n in names}
    hf = json.load(open("ref.json", encoding="utf-8"))
    bad = 0
    for n in names:
        for text, count in zip(hf["texts"], hf[n]):
            mine = len(refs[n].encode(text))
            if mine != count:
                bad += 1
                print(f"{n}: reference {mine} tokens, tokenizers {count}: {text[:60]!r}", file=sys.stderr)
    if bad:
        sys.exit(f"{bad} counts differ from ref.json: ids.json not written")
    out = {"texts": CORPUS}
    for n in names:
        out[n] = [refs[n].encode(t) for t in CORPUS]
    if "--check-hf" in sys.argv:
        from tokenizers import Tokenizer

        for n in names:
            tk = Tokenizer.from_file(n + ".json")
            for t, ids in zip(CORPUS, out[n]):
                assert tk.encode(t, add_special_tokens=False).ids == ids, (n, t)
        print("every id agrees with tokenizers", file=sys.stderr)
    with open("ids.json", "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"ids.json: {len(CORPUS)} texts x {len(names)} tokenizers; the reference agrees with ref.json's "
          f"{len(hf['texts'])} counts", file=sys.stderr)


main()
