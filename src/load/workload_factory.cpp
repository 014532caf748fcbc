#include "load/workload_factory.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "common/error.h"
#include "load/token_counter.h"
#include "load/tokenizer_files.h"

namespace cuprobe {
namespace {

enum class PathUse { kNone, kRequired, kOptional };

struct DatasetKind {
  const char* name;
  PathUse path;
  bool counts;  // prompt lengths are counted (a counter is needed)
};

// Every --dataset-name: its peers' names, what --dataset-path is to it.
constexpr DatasetKind kDatasets[] = {
    {"random", PathUse::kNone, true},
    {"sharegpt", PathUse::kRequired, true},
    {"shared-prefix", PathUse::kNone, true},
    {"generated-shared-prefix", PathUse::kNone, true},
    {"prefix_repetition", PathUse::kNone, true},
    {"custom", PathUse::kRequired, false},
    {"sonnet", PathUse::kOptional, true},
    {"burstgpt", PathUse::kRequired, true},
    {"timed_trace", PathUse::kRequired, true},
    {"mooncake", PathUse::kRequired, true},
    {"jsonl", PathUse::kRequired, false},
};

const DatasetKind* find_dataset(const std::string& name) {
  for (const DatasetKind& k : kDatasets) {
    if (name == k.name) return &k;
  }
  return nullptr;
}

}  // namespace

std::string dataset_names() {
  std::string out;
  for (const DatasetKind& k : kDatasets) out += (out.empty() ? "" : ", ") + std::string(k.name);
  return out;
}

namespace {

bool is_shared_prefix(const std::string& name) { return name == "shared-prefix" || name == "generated-shared-prefix"; }
bool is_trace(const std::string& name) { return name == "timed_trace" || name == "mooncake"; }

// The trace's time unit and block size, as the dataset's peer reads them.
TraceSpec trace_spec(const WorkloadSpec& f) {
  TraceSpec t = f.trace;
  if (f.dataset_name == "mooncake") {
    if (f.trace_sec_multiplier) throw Error("--timed-trace-sec-multiplier is for timed_trace", kExitUsage);
    t.seconds_per_unit = 0.001 * f.mooncake_slowdown.value_or(1.0);  // SGLang: ms, slowed down
    t.chunk_tokens = f.trace_chunk.value_or(512);                    // Mooncake's block of a hash id
  } else {
    if (f.mooncake_slowdown) throw Error("--mooncake-slowdown-factor is for mooncake", kExitUsage);
    t.seconds_per_unit = f.trace_sec_multiplier.value_or(1.0);
    t.chunk_tokens = f.trace_chunk.value_or(16);
  }
  return t;
}

bool replays_times(const WorkloadSpec& f) {
  return f.dataset_name == "mooncake" ? f.use_trace_timestamps : f.self_timed;
}

}  // namespace

std::optional<WorkloadPlan> plan_workload(const WorkloadSpec& spec, std::uint64_t planned_requests,
                                          std::int64_t default_output_len, std::uint64_t seed) {
  const std::string& name = spec.dataset_name;
  if (name.empty()) return std::nullopt;
  const DatasetKind* kind = find_dataset(name);
  if (!kind) throw Error("--dataset-name must be one of " + dataset_names(), kExitUsage);
  if (spec.token_count != "auto" && spec.token_count != "server" && spec.token_count != "words") {
    throw Error("--token-count must be auto, server or words", kExitUsage);
  }
  if (kind->path == PathUse::kRequired && spec.dataset_path.empty())
    throw Error("--dataset-name " + name + " needs --dataset-path", kExitUsage);
  if (kind->path == PathUse::kNone && !spec.dataset_path.empty()) {
    throw Error("--dataset-path is not for --dataset-name " + name, kExitUsage);
  }
  if (spec.multi_turn && name != "sharegpt" && name != "jsonl")
    throw Error("--multi-turn is for sharegpt and jsonl", kExitUsage);
  if (spec.sharegpt_output_len < 0) throw Error("--sharegpt-output-len must be positive", kExitUsage);
  WorkloadPlan plan;
  plan.spec = spec;
  WorkloadSpec& f = plan.spec;
  std::uint64_t pool = spec.pool_size > 0 ? spec.pool_size : (planned_requests > 0 ? planned_requests : 1000);
  f.pool_size = pool;
  f.random.count = f.sonnet.count = f.repetition.requests = f.custom.count = f.trace.count = pool;
  f.random.seed = f.gsp.seed = f.repetition.seed = f.custom.seed = f.sonnet.seed = f.trace.seed = seed;
  f.custom.shuffle = !spec.disable_shuffle;
  f.custom.oversample = !spec.no_oversample;
  if (name == "random") check_random_spec(f.random);
  if (is_shared_prefix(name)) check_shared_prefix_spec(f.gsp);
  if (name == "prefix_repetition") check_prefix_repetition_spec(f.repetition);
  if (is_trace(name)) f.trace = trace_spec(f);
  if (!spec.tokenizer.empty()) {
    if (spec.token_count != "auto") throw Error("--tokenizer and --token-count exclude each other", kExitUsage);
    plan.tokenizer = load_tokenizer(spec.tokenizer);
  }
  if (name == "sharegpt") plan.sharegpt = read_sharegpt(spec.dataset_path, spec.dataset_max_bytes);
  if (name == "jsonl") plan.jsonl = read_jsonl_prompts(spec.dataset_path, default_output_len, spec.dataset_max_bytes);
  if (name == "custom") plan.custom = read_custom_jsonl(spec.dataset_path);
  if (name == "burstgpt") plan.burstgpt = read_burstgpt(spec.dataset_path);
  if (name == "sonnet") plan.sonnet_lines = sonnet_lines(spec.dataset_path);
  if (is_trace(name)) plan.trace = read_trace(spec.dataset_path, f.trace);
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

std::string range_text(const LengthRange& r) { return std::to_string(r.low) + ".." + std::to_string(r.high); }

// One dataset's requests, the line that describes them and its report settings.
struct Made {
  std::vector<Conversation> conversations;
  std::string what;
};

Made make_random(const WorkloadSpec& f, TokenCounter& counter, nlohmann::ordered_json& s) {
  Made m{random_dataset(f.random, counter), {}};
  LengthRange in = length_range(f.random.input_len, f.random.range_ratio, f.random.rule);
  LengthRange out = length_range(f.random.output_len, f.random.range_ratio, f.random.rule);
  m.what = "random, " + std::to_string(m.conversations.size()) + " prompts of " +
           (f.random.prefix_len > 0 ? std::to_string(f.random.prefix_len) + " shared + " : "") + range_text(in) +
           " tokens in, " + range_text(out) + " out";
  s["random_input_len"] = f.random.input_len;
  s["random_output_len"] = f.random.output_len;
  s["random_range_ratio"] = f.random.range_ratio;
  s["random_prefix_len"] = f.random.prefix_len;
  s["range_rule"] = range_rule_name(f.random.rule);
  return m;
}

Made make_shared_prefix(const WorkloadSpec& f, TokenCounter& counter, nlohmann::ordered_json& s) {
  Made m{shared_prefix_dataset(f.gsp, counter), {}};
  m.what = f.dataset_name + ", " + std::to_string(f.gsp.groups) + " groups x " +
           std::to_string(f.gsp.prompts_per_group) + " prompts, system " + std::to_string(f.gsp.system_prompt_len) +
           " + question " + std::to_string(f.gsp.question_len) + " tokens in, " + std::to_string(f.gsp.output_len) +
           " out" + (f.gsp.range_ratio < 1 ? " (range ratio " + std::to_string(f.gsp.range_ratio) + ")" : "");
  s["gsp_num_groups"] = f.gsp.groups;
  s["gsp_prompts_per_group"] = f.gsp.prompts_per_group;
  s["gsp_system_prompt_len"] = f.gsp.system_prompt_len;
  s["gsp_question_len"] = f.gsp.question_len;
  s["gsp_output_len"] = f.gsp.output_len;
  s["gsp_range_ratio"] = f.gsp.range_ratio;
  return m;
}

Made make_prefix_repetition(const WorkloadSpec& f, TokenCounter& counter, nlohmann::ordered_json& s) {
  const PrefixRepetitionSpec& r = f.repetition;
  Made m{prefix_repetition_dataset(r, counter), {}};
  m.what = "prefix_repetition, " + std::to_string(r.num_prefixes) + " prefixes x " +
           std::to_string(m.conversations.size() / static_cast<std::size_t>(r.num_prefixes)) + " prompts, prefix " +
           std::to_string(r.prefix_len) + " + suffix " + std::to_string(r.suffix_len) + " tokens in, " +
           std::to_string(r.output_len) + " out";
  s["prefix_repetition_prefix_len"] = r.prefix_len;
  s["prefix_repetition_suffix_len"] = r.suffix_len;
  s["prefix_repetition_num_prefixes"] = r.num_prefixes;
  s["prefix_repetition_output_len"] = r.output_len;
  return m;
}

Made make_sharegpt(const WorkloadPlan& plan, TokenCounter& counter, nlohmann::ordered_json& s) {
  const WorkloadSpec& f = plan.spec;
  ShareGptSpec spec;
  spec.count = f.pool_size;
  spec.fixed_output_len = f.sharegpt_output_len;
  spec.multi_turn = f.multi_turn;
  spec.seed = f.random.seed;
  ShareGptSelection sel = select_sharegpt(*plan.sharegpt, spec, counter);
  if (sel.conversations.empty()) {
    throw Error(f.dataset_path + ": no conversation passed the length filter (" + std::to_string(sel.too_short) +
                " too short, " + std::to_string(sel.too_long) + " too long)");
  }
  Made m{std::move(sel.conversations), {}};
  m.what = "sharegpt " + f.dataset_path + ", " + std::to_string(m.conversations.size()) + " conversations (" +
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
  return m;
}

Made make_sonnet(const WorkloadPlan& plan, TokenCounter& counter, nlohmann::ordered_json& s) {
  const WorkloadSpec& f = plan.spec;
  Made m{sonnet_dataset(plan.sonnet_lines, f.sonnet, counter), {}};
  std::string source = f.dataset_path.empty() ? "Shakespeare's sonnets" : f.dataset_path;
  m.what = "sonnet (" + source + "), " + std::to_string(m.conversations.size()) + " prompts of at most " +
           std::to_string(f.sonnet.input_len) + " tokens in (" + std::to_string(f.sonnet.prefix_len) + " shared), " +
           std::to_string(f.sonnet.output_len) + " out";
  s["path"] = f.dataset_path.empty() ? "bundled" : f.dataset_path;
  s["sonnet_input_len"] = f.sonnet.input_len;
  s["sonnet_output_len"] = f.sonnet.output_len;
  s["sonnet_prefix_len"] = f.sonnet.prefix_len;
  return m;
}

Made make_burstgpt(const WorkloadPlan& plan, TokenCounter& counter, nlohmann::ordered_json& s) {
  const WorkloadSpec& f = plan.spec;
  const BurstGptFile& file = *plan.burstgpt;
  Made m{burstgpt_dataset(file, f.pool_size, f.random.seed, counter), {}};
  m.what = "burstgpt " + f.dataset_path + ", " + std::to_string(m.conversations.size()) + " requests drawn from " +
           std::to_string(file.rows.size()) + " GPT-4 rows (of " + std::to_string(file.lines) + ": " +
           std::to_string(file.other_models) + " of other models, " + std::to_string(file.failed) + " failed)";
  s["path"] = f.dataset_path;
  s["rows"] = file.lines;
  s["kept"] = file.rows.size();
  s["other_models"] = file.other_models;
  s["failed"] = file.failed;
  return m;
}

Made make_trace(const WorkloadPlan& plan, TokenCounter& counter, nlohmann::ordered_json& s,
                std::vector<std::int64_t>& arrivals) {
  const WorkloadSpec& f = plan.spec;
  TraceWorkload t = trace_dataset(plan.trace, f.trace, counter);
  bool timed = replays_times(f);
  if (timed) arrivals = t.offsets_ns;
  double span_s = t.offsets_ns.empty() ? 0 : static_cast<double>(t.offsets_ns.back()) / 1e9;
  Made m{std::move(t.conversations), {}};
  char span[32];
  std::snprintf(span, sizeof span, "%.1f", span_s);
  m.what =
      f.dataset_name + " " + f.dataset_path + ", " + std::to_string(m.conversations.size()) + " requests, " +
      std::to_string(t.blocks) + " blocks of " + std::to_string(f.trace.chunk_tokens) + " tokens, " +
      (timed ? "sent at the trace's times over " + std::string(span) + " s"
             : "the trace's times unused (" +
                   std::string(f.dataset_name == "mooncake" ? "no --use-trace-timestamps" : "--no-self-timed") + ")");
  s["path"] = f.dataset_path;
  s["seconds_per_unit"] = f.trace.seconds_per_unit;
  s["chunk_tokens"] = f.trace.chunk_tokens;
  s["blocks"] = t.blocks;
  s["timed"] = timed;
  s["span_s"] = span_s;
  return m;
}

}  // namespace

BuiltWorkload build_workload(const WorkloadPlan& plan, const HttpUrl& server, const HttpClientConfig& client,
                             const std::string& model) {
  const WorkloadSpec& f = plan.spec;
  const std::string& name = f.dataset_name;
  BuiltWorkload built;
  std::shared_ptr<TokenCounter> counter;
  if (find_dataset(name)->counts) {
    counter = plan.tokenizer;
    if (!counter) counter = make_token_counter(f.token_count, server, client, model, built.note);
  }
  nlohmann::ordered_json& s = built.settings;
  s["name"] = name;
  Made m;
  if (name == "random") {
    m = make_random(f, *counter, s);
  } else if (is_shared_prefix(name)) {
    m = make_shared_prefix(f, *counter, s);
  } else if (name == "prefix_repetition") {
    m = make_prefix_repetition(f, *counter, s);
  } else if (name == "sharegpt") {
    m = make_sharegpt(plan, *counter, s);
  } else if (name == "sonnet") {
    m = make_sonnet(plan, *counter, s);
  } else if (name == "burstgpt") {
    m = make_burstgpt(plan, *counter, s);
  } else if (is_trace(name)) {
    m = make_trace(plan, *counter, s, built.arrivals_ns);
  } else if (name == "custom") {
    m.conversations = custom_dataset(plan.custom, f.custom, f.dataset_path);
    m.what = "custom " + f.dataset_path + ", " + std::to_string(m.conversations.size()) + " prompts of " +
             std::to_string(plan.custom.size()) + " lines";
    s["path"] = f.dataset_path;
    s["lines"] = plan.custom.size();
    s["custom_output_len"] = f.custom.output_len;
  } else {
    m.conversations = jsonl_conversations(plan.jsonl, f.multi_turn);
    m.what = "jsonl " + f.dataset_path + ", " + std::to_string(m.conversations.size()) + " prompts";
    s["path"] = f.dataset_path;
  }
  std::size_t turns = 0, longest = 0;
  for (const Conversation& c : m.conversations) {
    turns += c.turns.size();
    longest = std::max(longest, c.turns.size());
  }
  if (longest > 1) m.what += ", multi-turn: " + std::to_string(turns) + " turns";
  std::string method = counter ? counter->method() : "not counted";
  m.what += "; lengths: " + method;
  if (counter && counter->calls() > 0) m.what += " (" + std::to_string(counter->calls()) + " calls)";
  s["conversations"] = m.conversations.size();
  s["turns"] = turns;
  s["multi_turn"] = longest > 1;
  s["prompt_lengths"] = method;
  built.workload = std::make_unique<Workload>(std::move(m.conversations), m.what);
  return built;
}

void apply_workload_arrivals(const BuiltWorkload& built, LoadOptions& options) {
  if (built.arrivals_ns.empty()) return;
  options.arrival_offsets_ns = built.arrivals_ns;
  options.rate = 0;
  options.ramp = RampUp::kNone;
}

}  // namespace cuprobe
