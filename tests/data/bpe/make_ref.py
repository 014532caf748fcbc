# Makes the byte-level BPE fixtures of tests/load/bpe_tokenizer_test.cpp with
# Hugging Face `tokenizers` (0.23.2 here, on the GPU machine, which has it):
# three tokenizers trained on Python's standard library sources with the
# GPT-2, Llama 3 and Qwen 2 split patterns, and ref.json with the library's
# token counts (add_special_tokens=False) of 41 texts. Run: OUT=DIR python3 make_ref.py,
# then minify the files into this folder.
import glob, json, os, random

from tokenizers import Regex, Tokenizer, models, pre_tokenizers as pt, trainers

o = os.environ["OUT"]
F = sorted(glob.glob("/usr/lib/python3*/**/*.py", recursive=True))[:400]
corpus = [open(f, errors="ignore").read() for f in F]
corpus += ["café — naïve résumé 東京 🙂 Привет мир «quote» ½ ²", "Don't WE'LL they'RE I'm 1,000,000 3.14"] * 50
L = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
Q = L.replace(r"\p{N}{1,3}", r"\p{N}")
P = {"gpt2": pt.ByteLevel(add_prefix_space=False, use_regex=True)}
for n, r in (("llama3", L), ("qwen2", Q)):
    P[n] = pt.Sequence([pt.Split(Regex(r), behavior="isolated", invert=False),
                        pt.ByteLevel(add_prefix_space=False, use_regex=False)])
g = random.Random(7)
X = ["Hello world, it's 12345  ok\n", "IT'S (x) a\n\n  b", "x!!\n\ny", "café — naïve résumé 東京 🙂 done",
     "def f(x):\n    return x**2  # c\n\n\tprint('hi')", "Numbers 3.14159, 1,000,000 and 2024-12-01.",
     "  lead and trail   ", "Don't WE'LL they'RE I'm", "a\r\nb\r\n\r\nc", "mail a.b@c.com http://x.y/z?q=1",
     "Привет, мир! «quote» ½ ² ©2024 — 你好，世界。"]
for f in g.sample(F, 30):
    t = open(f, errors="ignore").read()
    s = g.randrange(max(1, len(t) - 3000))
    X.append(t[s:s + g.randrange(100, 3000)])
R = {"texts": X}
for n, p in P.items():
    tk = Tokenizer(models.BPE())
    tk.pre_tokenizer = p
    tk.train_from_iterator(corpus, trainers.BpeTrainer(vocab_size=3000, initial_alphabet=pt.ByteLevel.alphabet(),
                                                       show_progress=False))
    tk.save(o + "/" + n + ".json")
    R[n] = [len(tk.encode(x, add_special_tokens=False).ids) for x in X]
json.dump(R, open(o + "/ref.json", "w"))
