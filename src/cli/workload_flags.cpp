#include "cli/workload_flags.h"

#include <algorithm>

#include "common/error.h"
#include "common/units.h"
#include "load/bpe_tokenizer.h"
#include "load/token_counter.h"

namespace cuprobe {

void add_workload_flags(CLI::App& app, WorkloadFlags& f) {
  app.add_option("--dataset-name", f.dataset_name,
                 "workload: random, sharegpt, shared-prefix or jsonl (vLLM/SGLang --dataset-name)");
  app.add_option("--dataset-path", f.dataset_path, "sharegpt: the ShareGPT JSON file; jsonl: the JSONL file");
  app.add_option_function<std::string>(
      "--dataset-max-size", [&f](const std::string& size) { f.dataset_max_bytes = parse_size(size); },
      "the largest dataset file read (default 1GiB): a larger file ends with an error naming it");
  app.add_option("--num-prompts", f.num_prompts,
                 "requests the workload holds (cycled when the run sends more; default: -n plus warm-up, or 1000)");
  app.add_option("--random-input-len", f.random.input_len, "random: prompt tokens")->capture_default_str();
  app.add_option("--random-output-len", f.random.output_len, "random: max_tokens")->capture_default_str();
  app.add_option("--random-range-ratio", f.random.range_ratio,
                 "random: lengths uniform in [len*(1-r), len*(1+r)], r in [0, 1)")
      ->capture_default_str();
  app.add_option("--sharegpt-output-len", f.sharegpt_output_len,
                 "sharegpt: max_tokens of every request (default: the reply's length)");
  app.add_option("--gsp-num-groups", f.gsp.groups, "shared-prefix: groups (one system prompt each)")
      ->capture_default_str();
  app.add_option("--gsp-prompts-per-group", f.gsp.prompts_per_group, "shared-prefix: questions per group")
      ->capture_default_str();
  app.add_option("--gsp-system-prompt-len", f.gsp.system_prompt_len, "shared-prefix: system prompt tokens")
      ->capture_default_str();
  app.add_option("--gsp-question-len", f.gsp.question_len, "shared-prefix: question tokens")->capture_default_str();
  app.add_option("--gsp-output-len", f.gsp.output_len, "shared-prefix: max_tokens")->capture_default_str();
  app.add_flag("--multi-turn", f.multi_turn,
               "sharegpt, jsonl: every user turn of a conversation, in order, each with the history before it");
  app.add_option("--token-count", f.token_count,
                 "how prompt lengths are counted: auto (the server's /tokenize, else words), server or words")
      ->capture_default_str();
  app.add_option("--tokenizer", f.tokenizer,
                 "count prompt lengths with this Hugging Face tokenizer.json (byte-level BPE) instead of the server");
}

void check_workload_flags_used(const CLI::App& app, const WorkloadFlags& flags) {
  if (!flags.dataset_name.empty()) return;
  for (const char* name :
       {"--dataset-path", "--num-prompts", "--random-input-len", "--random-output-len", "--random-range-ratio",
        "--sharegpt-output-len", "--gsp-num-groups", "--gsp-prompts-per-group", "--gsp-system-prompt-len",
        "--gsp-question-len", "--gsp-output-len", "--multi-turn", "--token-count", "--tokenizer"}) {
    if (app.count(name) > 0) throw Error(std::string(name) + " needs --dataset-name", kExitUsage);
  }
}

std::optional<WorkloadPlan> plan_workload(const WorkloadFlags& flags, std::uint64_t planned_requests,
                                          std::int64_t default_output_len, std::uint64_t seed) {
  const std::string& name = flags.dataset_name;
  if (name.empty()) return std::nullopt;
  if (name != "random" && name != "sharegpt" && name != "shared-prefix" && name != "jsonl") {
    throw Error("--dataset-name must be random, sharegpt, shared-prefix or jsonl", kExitUsage);
  }
  if (flags.token_count != "auto" && flags.token_count != "server" && flags.token_count != "words") {
    throw Error("--token-count must be auto, server or words", kExitUsage);
  }
  bool needs_path = name == "sharegpt" || name == "jsonl";
  if (needs_path && flags.dataset_path.empty())
    throw Error("--dataset-name " + name + " needs --dataset-path", kExitUsage);
  if (!needs_path && !flags.dataset_path.empty()) throw Error("--dataset-path is for sharegpt and jsonl", kExitUsage);
  if (flags.multi_turn && !needs_path) throw Error("--multi-turn is for sharegpt and jsonl", kExitUsage);
  if (flags.sharegpt_output_len < 0) throw Error("--sharegpt-output-len must be positive", kExitUsage);
  WorkloadPlan plan;
  plan.flags = flags;
  std::uint64_t pool = flags.num_prompts > 0 ? flags.num_prompts : (planned_requests > 0 ? planned_requests : 1000);
  plan.flags.random.count = pool;
  plan.flags.random.seed = seed;
  plan.flags.gsp.seed = seed;
  plan.flags.num_prompts = pool;
  if (name == "random") check_random_spec(plan.flags.random);
  if (name == "shared-prefix") check_shared_prefix_spec(plan.flags.gsp);
  if (!flags.tokenizer.empty()) {
    if (flags.token_count != "auto") throw Error("--tokenizer and --token-count exclude each other", kExitUsage);
    plan.tokenizer = BpeTokenCounter::load(flags.tokenizer);
  }
  if (name == "sharegpt") plan.sharegpt = read_sharegpt(flags.dataset_path, flags.dataset_max_bytes);
  if (name == "jsonl") plan.jsonl = read_jsonl_prompts(flags.dataset_path, default_output_len, flags.dataset_max_bytes);
  return plan;
}

namespace {

std::vector<Conversation> jsonl_conversations(const std::vector<Prompt>& prompts, bool multi_turn) {
  std::vector<Conversation> out;
  for (const Prompt& p : prompts) {
    if (p.messages.is_null()) {
      out.push_back(Conversation{{p}});
      continue;
    }
    Conversation c;
    if (multi_turn) c = split_turns(p.messages, p.max_tokens);
    if (c.turns.size() <= 1) {  // the whole chat as one request
      Prompt whole = p;
      whole.text = messages_text(p.messages);
      c = Conversation{{whole}};
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

BuiltWorkload build_workload(const WorkloadPlan& plan, const HttpUrl& server, const HttpClientConfig& client,
                             const std::string& model) {
  const WorkloadFlags& f = plan.flags;
  BuiltWorkload built;
  std::shared_ptr<TokenCounter> counter = f.dataset_name == "jsonl" ? nullptr : plan.tokenizer;
  if (!counter && f.dataset_name != "jsonl")
    counter = make_token_counter(f.token_count, server, client, model, built.note);
  std::vector<Conversation> conversations;
  std::string what;
  nlohmann::ordered_json& s = built.settings;
  s["name"] = f.dataset_name;
  if (f.dataset_name == "random") {
    conversations = random_dataset(f.random, *counter);
    LengthRange in = length_range(f.random.input_len, f.random.range_ratio);
    LengthRange out = length_range(f.random.output_len, f.random.range_ratio);
    what = "random, " + std::to_string(conversations.size()) + " prompts of " + std::to_string(in.low) + ".." +
           std::to_string(in.high) + " tokens in, " + std::to_string(out.low) + ".." + std::to_string(out.high) +
           " out";
    s["random_input_len"] = f.random.input_len;
    s["random_output_len"] = f.random.output_len;
    s["random_range_ratio"] = f.random.range_ratio;
  } else if (f.dataset_name == "shared-prefix") {
    conversations = shared_prefix_dataset(f.gsp, *counter);
    what = "shared-prefix, " + std::to_string(f.gsp.groups) + " groups x " + std::to_string(f.gsp.prompts_per_group) +
           " prompts, system " + std::to_string(f.gsp.system_prompt_len) + " + question " +
           std::to_string(f.gsp.question_len) + " tokens in, " + std::to_string(f.gsp.output_len) + " out";
    s["gsp_num_groups"] = f.gsp.groups;
    s["gsp_prompts_per_group"] = f.gsp.prompts_per_group;
    s["gsp_system_prompt_len"] = f.gsp.system_prompt_len;
    s["gsp_question_len"] = f.gsp.question_len;
    s["gsp_output_len"] = f.gsp.output_len;
  } else if (f.dataset_name == "sharegpt") {
    ShareGptSpec spec;
    spec.count = f.num_prompts;
    spec.fixed_output_len = f.sharegpt_output_len;
    spec.multi_turn = f.multi_turn;
    spec.seed = f.random.seed;
    ShareGptSelection sel = select_sharegpt(*plan.sharegpt, spec, *counter);
    if (sel.conversations.empty()) {
      throw Error(f.dataset_path + ": no conversation passed the length filter (" + std::to_string(sel.too_short) +
                  " too short, " + std::to_string(sel.too_long) + " too long)");
    }
    conversations = std::move(sel.conversations);
    what = "sharegpt " + f.dataset_path + ", " + std::to_string(conversations.size()) + " conversations (" +
           std::to_string(sel.checked) + " checked: " + std::to_string(sel.too_short) + " too short, " +
           std::to_string(sel.too_long) + " too long; " + std::to_string(plan.sharegpt->unusable) + " of " +
           std::to_string(plan.sharegpt->entries) + " entries unusable)";
    s["path"] = f.dataset_path;
    s["entries"] = plan.sharegpt->entries;
    s["unusable"] = plan.sharegpt->unusable;
    s["checked"] = sel.checked;
    s["too_short"] = sel.too_short;
    s["too_long"] = sel.too_long;
    s["sharegpt_output_len"] = f.sharegpt_output_len;
  } else {
    conversations = jsonl_conversations(plan.jsonl, f.multi_turn);
    what = "jsonl " + f.dataset_path + ", " + std::to_string(conversations.size()) + " prompts";
    s["path"] = f.dataset_path;
  }
  std::size_t turns = 0, longest = 0;
  for (const Conversation& c : conversations) {
    turns += c.turns.size();
    longest = std::max(longest, c.turns.size());
  }
  if (longest > 1) what += ", multi-turn: " + std::to_string(turns) + " turns";
  std::string method = counter ? counter->method() : "not counted";
  what += "; lengths: " + method;
  if (counter && counter->calls() > 0) what += " (" + std::to_string(counter->calls()) + " calls)";
  s["conversations"] = conversations.size();
  s["turns"] = turns;
  s["multi_turn"] = longest > 1;
  s["prompt_lengths"] = method;
  built.workload = std::make_unique<Workload>(std::move(conversations), what);
  return built;
}

}  // namespace cuprobe
