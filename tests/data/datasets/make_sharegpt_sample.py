"""Writes sharegpt_sample.json (run it in tests/data/datasets/): 200 synthetic conversations in ShareGPT's format
(`conversations`: alternating human/gpt turns), prompt and reply lengths spread
like chat traffic (log-normal), for the README's bench example and the tests.
Synthetic text: no real ShareGPT content is bundled."""
import json
import random

rng = random.Random(7)
words = ("the model serves tokens fast when the batch is large and the cache holds "
         "every prefix it has seen before so decode steps stay short while prefill "
         "work grows with the prompt length of each request in the queue").split()


def text(n):
    return " ".join(rng.choice(words) for _ in range(max(1, n)))


convs = []
for i in range(200):
    turns = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        turns.append({"from": "human", "value": text(int(rng.lognormvariate(4.0, 0.9)))})
        turns.append({"from": "gpt", "value": text(int(rng.lognormvariate(4.6, 0.7)))})
    convs.append({"id": f"synthetic-{i}", "conversations": turns})
with open("sharegpt_sample.json", "w") as f:
    json.dump(convs, f, indent=0)
