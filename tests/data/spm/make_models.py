# Makes the SentencePiece fixtures of tests/load/sentencepiece_tokenizer_test.cpp
# with Debian's python3-sentencepiece (0.1.97, the library cuprobe loads):
# three small models trained on Python's standard library sources and the
# non-ASCII texts of ../bpe/ids.json, set up as the model families set theirs,
# and ids.json with the library's ids (no BOS/EOS) of those texts and more.
#   llama2.model  BPE, byte fallback, digits split, a dummy "▁" prefix (Llama 2, Mistral)
#   gemma.model   BPE, byte fallback, digits split, no dummy prefix, whitespace kept (Gemma)
#   t5.model      unigram with NFKC normalization (T5, ALBERT)
# Run from this folder: /usr/bin/python3 make_models.py
import glob
import json

import sentencepiece as spm

texts = json.load(open("../bpe/ids.json", encoding="utf-8"))["texts"]
files = sorted(glob.glob("/usr/lib/python3.11/*.py"))[:120]
with open("/tmp/spm_corpus.txt", "w", encoding="utf-8") as f:
    for path in files:
        for line in open(path, encoding="utf-8", errors="ignore"):
            if line.strip():
                f.write(line)
    for _ in range(20):
        for t in texts:
            f.write(t.replace("\n", " ").replace("\r", " ") + "\n")

common = dict(input="/tmp/spm_corpus.txt", character_coverage=0.9995, input_sentence_size=200000,
              shuffle_input_sentence=False, num_threads=1, bos_id=1, eos_id=2, unk_id=0)
spm.SentencePieceTrainer.train(model_prefix="llama2", model_type="bpe", vocab_size=1200, byte_fallback=True,
                               split_digits=True, add_dummy_prefix=True, normalization_rule_name="identity",
                               remove_extra_whitespaces=False, allow_whitespace_only_pieces=True, **common)
spm.SentencePieceTrainer.train(model_prefix="gemma", model_type="bpe", vocab_size=1200, byte_fallback=True,
                               split_digits=True, add_dummy_prefix=False, normalization_rule_name="identity",
                               remove_extra_whitespaces=False, allow_whitespace_only_pieces=True,
                               user_defined_symbols=["<start_of_turn>", "<end_of_turn>"], **common)
spm.SentencePieceTrainer.train(model_prefix="t5", model_type="unigram", vocab_size=900,
                               normalization_rule_name="nmt_nfkc", **common)

extra = ["", " ", "  leading and trailing  ", "<start_of_turn>user\nhi<end_of_turn>", "x" * 300,
         "ﬁ ligature and ＦＵＬＬＷＩＤＴＨ", "1234567890 12.5%"]
out = {"texts": texts + extra}
for name in ("llama2", "gemma", "t5"):
    sp = spm.SentencePieceProcessor(model_file=name + ".model")
    out[name] = [sp.encode(t) for t in out["texts"]]
with open("ids.json", "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
    f.write("\n")
