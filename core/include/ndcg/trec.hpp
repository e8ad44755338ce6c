// TREC evaluation: streaming readers for qrels and run files (trec_read.cpp), a catalogue of
// measures with their names and parameters (trec_names.cpp), one function per measure over a
// query ranked once (trec_measures.cpp), and the evaluator and output (trec.cpp), with
// trec_eval 10.0's semantics unless an option says otherwise.
//
// Semantics (trec_eval's, checked against its source, its test suite and random inputs):
//   * a run is ranked by score descending, ties broken by docno descending (byte compare), then
//     cut at -M; the rank column is ignored; under -J unjudged documents are removed first;
//   * a document absent from the qrels is "not in the pool" (-1), one judged with a negative
//     grade "unjudged in the pool" (-2); binary measures count grades >= -l (0 or more);
//   * comments ('#' first in a qrels line, first non-blank in a run line) are skipped, run
//     fields after the sixth ignored, and the run's tag is its last line's;
//   * grades, -l, -M and cut-offs are signed 64-bit integers written in digits ("1e2" is an
//     error, not atol's 1); scores are decimal numbers or infinities; a field holding a control
//     character is an error; white space is ASCII, as trec_eval's;
//   * what the readers keep is bounded by a memory limit (an error names the line where it was
//     reached), so no file can exhaust the 2 GB of the wasm core;
//   * the mean is over queries in both files, or with average_complete (-c) over every qrels
//     query, one without results evaluated as trec_eval does (a ranking of one unjudged
//     document). trec_eval 10.0 stops with an error when a qrels query has no results and -c is
//     not given; here the query is left out with a warning. Every such difference is a warning.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ndcg/diagnostic.hpp"
#include "ndcg/explain.hpp"
#include "ndcg/text.hpp"

// NDCG_OUT_OF_LINE (ndcg/text.hpp) marks a function that runs once per query or more rarely, kept
// out of the function that calls it. A WebAssembly engine optimises a function whole once it is
// hot: inlined into the evaluation of a query, the rare paths (preferences, workings,
// explanations, a repeat's report) made it 59 KB of wasm, which V8 took 83-147 ms and 24 MB to
// optimise, on a core the other thread wanted.

namespace ndcg::detail {
// A document's score as a sort key, and its index (score_sort.hpp).
struct ScoreKey {
  std::uint64_t key;
  std::uint32_t index;
};
}  // namespace ndcg::detail

namespace ndcg::trec {

// ---------------------------------------------------------------------------------------------
// Qrels

struct JudgmentGroup;
struct RunPart;  // the later part of a run split between two sessions (Session::absorb)

// What the relevance file holds (trec_eval's -R):
enum class RelFormat : std::uint8_t {
  qrels,        // "qid iter docno grade"; the second field is ignored
  qrels_jg,     // the same, the second field naming a judgment group (one assessor, say)
  prefs,        // "qid group subgroup docno level": preferences, level a number >= 0
  qrels_prefs,  // a qrels file read as preferences: the second field a group, one subgroup
};

// One line of a preferences file: within judgment group `group`, every document of subgroup
// `subgroup` is preferred to those of the same subgroup at a lower `level` (0: not relevant).
struct Preference {
  std::string group;
  std::string subgroup;
  std::string docno;
  double level;
  std::uint32_t line;
};

// A docno's 64-bit hash, the same in the readers (run and qrels) and the evaluator: it places a
// judged document in its query's table (JudgedDocs, which then compares docnos), and a document
// retrieved twice is noticed by comparing hashes first and bytes only when they match. Eight
// bytes at a time, with a multiply-xorshift mix.
std::uint64_t docno_hash(std::string_view docno);

// One query's judged documents, in insertion order: their docnos in one string and an
// open-addressed table of their indexes, placed by docno_hash, so that a judgment costs no
// allocation of its own. Up to kScanned documents are found by scanning their docnos, with no
// table: a collection of many small queries then costs two allocations a query.
class JudgedDocs {
 public:
  // No hash: a slot's entry is checked by its docno (equal lengths, then bytes), and the table,
  // when it grows, hashes the docnos again. With the hash the entry took 24 bytes, and the
  // benchmark's 320,000 judgments 2.5 MB more in each thread that holds them.
  struct Entry {
    std::int64_t grade;
    std::uint32_t line;
    std::uint32_t offset;  // into the docnos; the docno ends where the next entry's begins
  };
  static_assert(sizeof(Entry) == 16, "a judgment's entry is 16 bytes: the qrels' main cost");

  // Adds a judgment; when `docno` is judged already, adds nothing and returns the judgment there.
  const Entry* insert(std::string_view docno, std::uint64_t hash, std::int64_t grade,
                      std::uint32_t line);
  // The judgment of `docno` (whose docno_hash is `hash`), or null. Inline up to the filter, where
  // most lookups end: a call per ranked document cost more than the lookup.
  const Entry* find(std::string_view docno, std::uint64_t hash) const {
    if (filter_mask_ != 0 && !filtered(hash)) return nullptr;
    return find_in_table(docno, hash);
  }
  const Entry* find(std::string_view docno) const { return find(docno, docno_hash(docno)); }
  // Takes the judgments of `building` (for an empty table), in storage of their exact size, and
  // empties `building` with room kept for as many: a query read in one stretch is built in one
  // table that keeps its storage from query to query, then settled here. Each query's own table
  // grown by doubling (half of the benchmark's outgrew the room of the query before), then copied
  // to its size, left holes: the wasm heap ended at 28 MB for those qrels, and now at 23 MB.
  void settle(JudgedDocs& building);
  // Gives back what the entries and docnos hold beyond their size (a vector grown by doubling
  // holds up to twice what it needs): for a query whose judgments are all read.
  // (By copying: without exceptions, libstdc++'s shrink_to_fit does nothing.)
  void shrink() {
    if (entries_.capacity() > entries_.size()) {
      std::vector<Entry>(entries_.begin(), entries_.end()).swap(entries_);
    }
    if (docnos_.capacity() > docnos_.size()) {
      std::vector<char>(docnos_.begin(), docnos_.end()).swap(docnos_);
    }
  }

  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  const std::vector<Entry>& entries() const { return entries_; }
  // The docno of an entry of this table (e is one of entries()).
  std::string_view docno(const Entry& e) const {
    return docno_at(static_cast<std::size_t>(&e - entries_.data()));
  }
  // Bytes held, for the readers' memory estimate.
  std::size_t bytes() const {
    return entries_.capacity() * sizeof(Entry) + docnos_.capacity() +
           slots_.capacity() * sizeof(std::uint16_t) + filter_.capacity() * sizeof(std::uint64_t);
  }

 private:
  static constexpr std::size_t kScanned = 8;
  // Tables of at most this many slots hold at most half as many entries (grow()), whose indexes
  // fit 16 bits: most queries' slots take two bytes, not four.
  static constexpr std::size_t kNarrowSlots = 65536;

  void grow();
  // The slots' size for `count` entries, as grow() reaches it: none while a scan serves, else
  // at most half full.
  static std::size_t table_size(std::size_t count);
  // Slots of `size` (a power of two, at least twice the entries), with every entry placed.
  void place_all(std::size_t size);
  void append(std::string_view docno, std::int64_t grade, std::uint32_t line);
  // The docno of entries_[k].
  std::string_view docno_at(std::size_t k) const {
    const std::size_t end = k + 1 < entries_.size() ? entries_[k + 1].offset : docnos_.size();
    return std::string_view(docnos_.data() + entries_[k].offset, end - entries_[k].offset);
  }
  const Entry* find_in_table(std::string_view docno, std::uint64_t hash) const;
  // The slots probed from `hash`: the one of `docno`'s entry, or the empty one where it would go.
  std::size_t probe(std::string_view docno, std::uint64_t hash) const;
  // A wide table's slots take two of slots_' 16-bit words each, low half first.
  bool wide() const { return slots_.size() > kNarrowSlots; }
  std::size_t slot_count() const { return wide() ? slots_.size() / 2 : slots_.size(); }
  std::size_t slot_at(std::size_t i) const {
    return wide() ? slots_[2 * i] | (std::size_t{slots_[2 * i + 1]} << 16) : slots_[i];
  }
  void set_slot(std::size_t i, std::size_t entry) {
    if (wide()) {
      slots_[2 * i] = static_cast<std::uint16_t>(entry);
      slots_[2 * i + 1] = static_cast<std::uint16_t>(entry >> 16);
    } else {
      slots_[i] = static_cast<std::uint16_t>(entry);
    }
  }
  // The slots as `size` empty ones (none for 0): narrow up to kNarrowSlots, else wide.
  void zero_slots(std::size_t size) { zeroed(slots_, size <= kNarrowSlots ? size : 2 * size); }
  // `table` as `size` zeros. Not assign(size, 0): called for every query, libc++'s assign is a
  // function a wasm engine optimises of its own (1.5 KB of wasm).
  template <class T>
  static void zeroed(std::vector<T>& table, std::size_t size) {
    table.resize(size);
    if (size > 0) std::memset(table.data(), 0, size * sizeof(T));
  }
  // The filter's bits for the slots there are (none before the slots).
  void size_filter() {
    zeroed(filter_, slot_count() / 8);
    filter_mask_ = filter_.empty() ? 0 : filter_.size() * 64 - 1;
  }
  std::size_t filter_bit(std::uint64_t hash) const {
    return static_cast<std::size_t>(hash >> 32) & filter_mask_;
  }
  void filter(std::uint64_t hash) {
    const std::size_t bit = filter_bit(hash);
    filter_[bit / 64] |= std::uint64_t{1} << (bit % 64);
  }
  bool filtered(std::uint64_t hash) const {
    const std::size_t bit = filter_bit(hash);
    return ((filter_[bit / 64] >> (bit % 64)) & 1) != 0;
  }

  std::vector<Entry> entries_;
  std::vector<char> docnos_;  // a vector, not a string: its appends inline
  // The slots, index into entries_ + 1 (0 is empty): 16 bits each for a table of at most
  // kNarrowSlots, else 32 (set_slot).
  std::vector<std::uint16_t> slots_;
  // With the slots, eight bits per slot, each set when a judged docno's hash names it (by its
  // high half, where the slots take the low): most ranked documents are not judged, and a clear
  // bit says so without probing the slots, where a lookup that finds nothing meets a full slot
  // about half the time. 16 to 32 bits per judgment: a bit set by another docno 3 to 6% of the
  // time.
  std::vector<std::uint64_t> filter_;
  std::size_t filter_mask_ = 0;  // its bits less one; 0 while there are no slots
};

struct QueryQrels {
  JudgedDocs by_doc;
  // Judged documents per grade, for grades >= 0, best grade first: sparse, so a grade of 10^18
  // costs one entry (filled by QrelsReader::finish).
  std::vector<std::pair<std::int64_t, std::int64_t>> grade_counts;
  // With judgment groups (-R qrels_jg: the second field names a group, such as one assessor),
  // each group's judgments, in byte order of the group ids; by_doc then stays empty.
  std::vector<JudgmentGroup> groups;
  // With preferences (-R prefs, -R qrels_prefs), the query's lines, sorted by group, subgroup
  // and docno; by_doc then stays empty.
  std::vector<Preference> preferences;
  // Its judgments were read and checked, but not kept: the query belongs to the other part of a
  // split run (QrelsReader::keep_only). Evaluating it here would be wrong.
  bool dropped = false;
};

struct JudgmentGroup {
  std::string id;
  QueryQrels judged;
};

// What the readers and the evaluator may keep, estimated from what they hold; crossing it is a
// located error. The wasm core has 2 GB in all.
inline constexpr std::size_t kQrelsMemoryLimit = 512u << 20;
inline constexpr std::size_t kRunMemoryLimit = 256u << 20;
inline constexpr std::size_t kResultsMemoryLimit = 256u << 20;

// Where a query's lines lie in a file, as byte offsets [start, end): the readers keep one span
// per stretch of consecutive lines of one query, in file order (a query whose lines are apart
// has several), when asked to (record_spans). Reading only a query's spans, in order, gives its
// lines and any comment or blank lines among them, so that one query can be evaluated again
// without reading the whole file. A file with more than kMaxSpans stretches keeps none.
struct QuerySpan {
  std::string qid;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
};
inline constexpr std::size_t kMaxSpans = 1'000'000;

class SpanRecorder {
 public:
  void enable() { on_ = true; }
  // A line of `qid` starts at `offset`, after a line of another query (or none).
  void begin(std::string_view qid, std::uint64_t offset);
  void end(std::uint64_t offset);  // the file ends
  // The spans, or nullptr when not asked for or given up.
  const std::vector<QuerySpan>* spans() const { return on_ && !dropped_ ? &spans_ : nullptr; }
  bool given_up() const { return on_ && dropped_; }
  // The spans of the file's later part, read by another recorder from where this one's part
  // ended (their offsets in the whole file); `given_up` when that one gave up.
  void append(const std::vector<QuerySpan>& later, bool given_up);

 private:
  std::vector<QuerySpan> spans_;
  bool on_ = false;
  bool dropped_ = false;
};

// Which queries' judgments a QrelsReader keeps (keep_only). An interface, so that a module that
// never filters (the page's) does not carry the filter's code.
class QueryFilter {
 public:
  virtual ~QueryFilter() = default;
  virtual bool keeps(std::string_view qid) const = 0;
};

// Which queries' judgments the session of one part of a run split between two sessions needs
// (Session::keep_part_queries), told by lines sampled from the run: `first` from the first part,
// its first line first, `later` from the later part, its first line (where the split is) first
// and the run's last line last, each whole, in file order. When the queries of those lines go up
// in byte order, or in the order of their numbers when all are numbers, and the later part's
// first query is after every query sampled from the first part, a run sorted so gives the first
// part the queries before that one in that order, and the later part the others: the judgments
// of those are kept (of either, when both orders fit). Else, or for no samples, every query's.
// A sample is no proof: a run whose queries are in another order between the samples has a
// query of the other part in this one, and the evaluator then says so (Evaluator::add), so that
// the parts are not joined and the run is read again, whole (Session::absorb).
class PartQueries final : public QueryFilter {
 public:
  PartQueries() = default;  // every query
  PartQueries(std::string_view first, std::string_view later, bool later_part);
  bool all() const { return orders_ == 0; }
  bool keeps(std::string_view qid) const override;

  static constexpr std::uint8_t kByteOrder = 1;
  static constexpr std::uint8_t kNumberOrder = 2;
  std::uint8_t orders() const { return orders_; }

 private:
  std::string boundary_;  // the later part's first query
  bool later_ = false;
  std::uint8_t orders_ = 0;
};

// Reads "qid iter docno grade" lines (or another RelFormat) in chunks of any size. Errors
// (located, source qrels): a wrong field count, a grade that is not a whole number (or does not
// fit 64 bits), a control character, a docno over kMaxDocIdBytes, a document judged twice for a
// query (both lines named), more than `memory_limit` bytes kept, an empty file (at finish).
// Preferences: a level that is not a number >= 0, a document twice in one subgroup, a document
// both relevant (level > 0) and not (0) in one group of several subgroups.
class QrelsReader {
 public:
  explicit QrelsReader(std::size_t memory_limit = kQrelsMemoryLimit)
      : memory_limit_(memory_limit) {}
  // Moved, never copied: indexed_queries_ and last_query_ point into queries_.
  QrelsReader(const QrelsReader&) = delete;
  QrelsReader& operator=(const QrelsReader&) = delete;
  QrelsReader(QrelsReader&&) = default;
  QrelsReader& operator=(QrelsReader&&) = default;

  // What the file holds (trec_eval's -R); set before the first feed.
  void set_format(RelFormat format) { format_ = format; }
  // Keep where each query's lines are (QuerySpan); set before the first feed.
  void record_spans() { spans_.enable(); }
  // Keep only the judgments of the queries `filter` keeps (for qrels, not judgment groups or
  // preferences): every line is read and checked as before, and each query is in queries(), the
  // others marked `dropped`, with no judgments. What they would hold still counts towards the
  // memory limit, so that the limit is met where it is without the filter. Before the first feed.
  void keep_only(std::unique_ptr<const QueryFilter> filter) { filter_ = std::move(filter); }
  // A dropped query's lines were apart in the file (met again after another query's): its
  // judgments were not all checked against each other, so its part cannot be joined.
  bool dropped_met_again() const { return dropped_met_again_; }
  // Reads every line the general way, never by the fast path that splits the common line a word
  // at a time: the reference the fast path is tested against. Before the first feed.
  void read_every_line_carefully() { careful_ = true; }
  const std::vector<QuerySpan>* spans() const { return spans_.spans(); }
  RelFormat format() const { return format_; }

  void feed(std::string_view chunk);
  void finish();

  // Queries in trec_eval's order (byte order of the query id).
  const std::map<std::string, QueryQrels>& queries() const { return queries_; }
  const DiagnosticList& errors() const { return errors_; }
  // Blank lines skipped (trec_eval stops at one as malformed), and the first one's number.
  std::uint32_t blank_lines() const { return blank_lines_; }
  std::uint32_t first_blank_line() const { return first_blank_line_; }

 private:
  // `classes`, when given, are the line's as LineSplitter found them (a short line).
  void line(std::string_view text, std::uint32_t number,
            const LineSplitter::ShortLine* classes = nullptr);
  void general_line(std::string_view text, std::uint32_t number);
  void judgment(std::string_view text, std::uint32_t number, const Field* fields);
  void report_grade(std::string_view text, std::uint32_t number, const Field& grade,
                    bool out_of_range);
  void report_judged_again(std::string_view text, std::uint32_t number, const Field* fields,
                           std::uint32_t first_line);
  JudgedDocs& group_of(QueryQrels& query, std::string_view id);
  void preference_line(std::string_view text, std::uint32_t number);
  void check_preferences(const std::string& qid, std::vector<Preference>& preferences);
  // Stops the reading with an error once what it keeps passes the memory limit: inline, as it
  // is asked after every judgment.
  void check_memory(std::uint32_t number) {
    if (kept_ > memory_limit_) stop_at_memory_limit(number);
  }
  void stop_at_memory_limit(std::uint32_t number);
  QueryQrels& query_of(std::string_view qid, bool* created);
  NDCG_OUT_OF_LINE QueryQrels& next_query(std::string_view qid, bool* created);
  // Qrels whose queries are apart (next_query): out of its way, as most qrels are grouped.
  NDCG_OUT_OF_LINE QueryQrels* indexed_query();
  NDCG_OUT_OF_LINE void index_query(std::pair<const std::string, QueryQrels>& query);
  // The judgments of `query`, read in one stretch into building_, settled into its own table.
  void settle(QueryQrels& query);
  NDCG_OUT_OF_LINE void complete_queries();  // not built for size with finish()
  static void count_grades(QueryQrels& query, std::vector<std::int64_t>& grades);
  void shrink(QueryQrels& query);
  void shrink(JudgedDocs& docs);

  LineSplitter lines_;
  SpanRecorder spans_;
  RelFormat format_ = RelFormat::qrels;
  std::uint32_t blank_lines_ = 0;
  std::uint32_t first_blank_line_ = 0;
  std::map<std::string, QueryQrels> queries_;
  // queries_ by id, once a query is met again (query_of): each id's place in indexed_queries_.
  std::unordered_map<std::string, std::size_t> query_index_;
  std::vector<QueryQrels*> indexed_queries_;
  std::string last_qid_;
  QueryQrels* last_query_ = nullptr;
  bool last_query_new_ = false;  // last_query_'s lines began with its stretch (see query_of)
  // The judgments of last_query_ while last_query_new_ (outside judgment groups), settled into
  // its table when its stretch ends (JudgedDocs::settle).
  JudgedDocs building_;
  DiagnosticList errors_;
  std::size_t judgments_ = 0;
  std::size_t memory_limit_;
  std::size_t kept_ = 0;  // estimated bytes held
  bool stopped_ = false;  // the memory limit was reached, or the file is a run
  bool careful_ = false;
  std::unique_ptr<const QueryFilter> filter_;  // keep_only's; none: every query
  bool dropped_met_again_ = false;
};

// ---------------------------------------------------------------------------------------------
// Runs

// One query's retrieved documents, in file order. Docnos live in one arena per query.
struct QueryRun {
  struct Doc {
    double score;
    std::uint32_t line;
    std::uint32_t column;  // of the docno
    std::uint32_t offset;  // into `docnos`
    std::uint32_t length;
    std::uint64_t hash;  // docno_hash of the docno
  };
  // The docnos, one after another: appended to as a vector<char> is, by doubling, but inline
  // (libc++'s vector::insert is a call per document). Moved, never copied: a query's documents
  // go from the reader to the evaluation as they are.
  class Docnos {
   public:
    Docnos() = default;
    Docnos(Docnos&&) = default;
    Docnos& operator=(Docnos&&) = default;
    Docnos(const Docnos& other) = delete;
    Docnos& operator=(const Docnos& other) = delete;
    std::size_t size() const { return size_; }
    const char* data() const { return bytes_.get(); }
    void clear() { size_ = 0; }
    void append(std::string_view docno) {
      const std::size_t n = docno.size();
      if (capacity_ - size_ < n) grow(n);
      char* to = bytes_.get() + size_;
      const char* from = docno.data();
      // The common docno, 4 to 16 bytes, as two copies of a fixed size that may overlap, inline:
      // a call to memcpy for a dozen bytes cost more than the rest of the append.
      if (n >= 8 && n <= 16) {
        copy_word<std::uint64_t>(to, from);
        copy_word<std::uint64_t>(to + n - 8, from + n - 8);
      } else if (n >= 4 && n < 8) {
        copy_word<std::uint32_t>(to, from);
        copy_word<std::uint32_t>(to + n - 4, from + n - 4);
      } else if (n != 0) {
        std::memcpy(to, from, n);
      }
      size_ += n;
    }

   private:
    template <class Word>
    static void copy_word(char* to, const char* from) {
      Word word;
      std::memcpy(&word, from, sizeof word);
      std::memcpy(to, &word, sizeof word);
    }
    void grow(std::size_t more) {
      const std::size_t capacity = std::max(2 * capacity_, size_ + more);
      std::unique_ptr<char[]> bytes(new char[capacity]);
      if (size_ != 0) std::memcpy(bytes.get(), bytes_.get(), size_);
      bytes_ = std::move(bytes);
      capacity_ = capacity;
    }
    std::unique_ptr<char[]> bytes_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
  };

  std::string qid;
  std::vector<Doc> docs;
  Docnos docnos;

  std::string_view docno(const Doc& d) const {
    return std::string_view(docnos.data() + d.offset, d.length);
  }
  void add_docno(std::string_view docno) { docnos.append(docno); }
  // A copy, in storage of its own size (Docnos are moved, never copied, as they go).
  QueryRun copy() const {
    QueryRun out;
    out.qid = qid;
    out.docs = docs;
    out.docnos.append(std::string_view(docnos.data(), docnos.size()));
    return out;
  }
};

// Reads "qid Q0 docno rank score tag" lines in chunks of any size and hands over each query as
// soon as the next query starts, so memory holds one query at a time. A run whose lines of one
// query are not contiguous is detected (regroup_needed()); read it again with buffer_all set,
// which keeps every query until finish().
class RunReader {
 public:
  using OnQuery = std::function<void(const QueryRun&)>;

  // Errors as for QrelsReader (a score must be a finite decimal number), and more than
  // `memory_limit` bytes held at once: one query's documents, or every query when buffer_all.
  RunReader(OnQuery on_query, bool buffer_all = false, std::size_t memory_limit = kRunMemoryLimit)
      : on_query_(std::move(on_query)), buffer_all_(buffer_all), memory_limit_(memory_limit) {}

  void feed(std::string_view chunk);
  void finish();

  // Whether the run's lines of one query are apart: the reading stops there (what follows would
  // be thrown away), and the run must be read again with buffer_all.
  bool regroup_needed() const { return regroup_needed_; }
  // Reads a part of a run that starts at a line other than the file's first (Session::absorb):
  // its lines are numbered from `first_line`, with no check of the file's first line. Before the
  // first feed.
  void continue_from_line(std::uint32_t first_line, std::uint64_t first_byte = 0);
  // Whether this reader stopped reading (a memory limit, a qrels file given as the run, or a
  // run to read again grouped).
  bool stopped() const { return stopped_; }
  // Whether a query was handed over by both this reader and the later part's (by their ids'
  // hashes: a collision only says yes wrongly, about once in 10^10).
  bool shares_query_with(const RunPart& later) const;
  // Puts what this reader of a later part kept into `out`; takes what the reader of the part
  // after this one's kept: its errors, the run's tag, its queries' ids.
  void part(RunPart& out) const;
  // Out of line, as Evaluator::absorb.
  NDCG_OUT_OF_LINE void absorb(const RunPart& later);
  // Keep where each query's lines are (QuerySpan); set before the first feed.
  void record_spans() { spans_.enable(); }
  // Reads every line the general way, never by the fast path that reads the common line a word
  // at a time: the reference the fast path is tested against. Before the first feed.
  void read_every_line_carefully() { careful_ = true; }
  const std::vector<QuerySpan>* spans() const { return spans_.spans(); }
  const DiagnosticList& errors() const { return errors_; }
  const std::string& run_tag() const { return run_tag_; }
  std::uint64_t lines_read() const { return lines_.lines_emitted(); }

 private:
  // `classes`, when given, are the line's as LineSplitter found them (a short line).
  void line(std::string_view text, std::uint32_t number,
            const LineSplitter::ShortLine* classes = nullptr);
  bool fast_line(std::string_view text, std::uint32_t number,
                 const LineSplitter::ShortLine* classes);
  void general_line(std::string_view text, std::uint32_t number);
  // A line read: its query, docno (at `column`), score and run tag.
  void accept(std::string_view qid, std::string_view docno, double score, std::string_view tag,
              std::uint32_t column, std::uint32_t number);
  void close_current();
  // accept()'s rare work, out of it: a wasm engine optimises accept(), run for every line, in a
  // time that grows with its size.
  NDCG_OUT_OF_LINE bool start_query(std::string_view qid);
  NDCG_OUT_OF_LINE bool keep_buffered();
  void stop_at_memory_limit(std::uint32_t number);

  OnQuery on_query_;
  bool buffer_all_;
  LineSplitter lines_;
  SpanRecorder spans_;
  QueryRun current_;
  // When buffer_all: every query, and where each id's is. (A table of that kind is in the core
  // already; another would make the page's module larger.)
  std::vector<QueryRun> buffered_;
  std::unordered_map<std::string, std::size_t> buffered_index_;
  // The ids of the queries handed over, as 64-bit hashes in an open-addressed table: a query id
  // met again means the run is not grouped. A collision (about one in 10^10 for a million
  // queries) only costs a second, buffered reading, never a wrong value.
  std::vector<std::uint64_t> closed_;
  std::size_t closed_count_ = 0;
  bool closed_insert(std::uint64_t hash);  // false when already there
  bool closed_contains(std::uint64_t hash) const;
  DiagnosticList errors_;
  std::string run_tag_;
  bool regroup_needed_ = false;
  bool any_line_ = false;
  bool careful_ = false;
  std::size_t memory_limit_;
  std::size_t kept_ = 0;  // estimated bytes held: the open query, or all of them when buffering
  // The memory limit was reached, the file is a qrels file, or the run must be read again.
  bool stopped_ = false;
};

// ---------------------------------------------------------------------------------------------
// Measures: a catalogue (trec_measures.cpp), in trec_eval 10.0's order, which is also the order
// of its output whatever the order of the -m options.

// How a measure's parameters are written after its name's first '.':
enum class ParamKind : std::uint8_t {
  none,            // map, bpref
  long_cutoffs,    // P.5,10: whole numbers >= 1, sorted, one output column each ("P_5")
  double_cutoffs,  // iprec_at_recall.0.1,0.5: one column each, named with 2 decimals
  doubles,         // utility.1,-1,0,0: an ordered list; one column named with the text
  pairs,           // ndcg.1=0.5,2=3, rbp.p=0.8: name=value pairs; one column named with the text
};

// How the "all" line combines the per-query values.
enum class Summary : std::uint8_t {
  mean,       // the arithmetic mean
  sum,        // the sum (counts: num_ret, num_rel_ret)
  geometric,  // exp of the mean of the logs (gm_map, gm_bpref: the per-query value is the log)
  num_q,      // the number of queries averaged over
  num_rel,    // the sum; with -c, every judged document of grade > 0 of every qrels query
  none,       // nothing (relstring)
  run_tag,    // the run's tag (runid)
};

// How the JS API and the command line's JSON name a Summary: "mean", "sum", "geometric",
// "count" (num_q), "sum" (num_rel), "none" or "runTag".
std::string_view summary_name(Summary summary);

enum class ValueKind : std::uint8_t { real, whole, text };

struct Ranked;          // one query's ranked relevance values (trec_measures.hpp)
struct MeasureContext;  // the counts a measure reads (trec_measures.hpp)

struct MeasureInstance;

struct MeasureDef {
  std::string_view name;  // trec_eval's name
  ParamKind params;
  std::string_view defaults;  // the parameters used when none are given ("" for none)
  ValueKind value;
  Summary summary;
  bool per_query;                // printed per query (-q)
  std::string_view ir_measures;  // the ir_measures name, "" when it has none
  std::string_view definition;   // one line, for -h and the README
  bool trec_eval = true;  // one of trec_eval 10.0's (else its columns take ir_measures' name)
};

// The catalogue, in trec_eval's order.
const std::vector<MeasureDef>& measure_catalogue();

// trec_eval's nicknames (official, all_trec, set, ...) and the measures they name.
struct Nickname {
  std::string_view name;
  std::vector<std::string_view> measures;
};
const std::vector<Nickname>& measure_nicknames();

// One requested measure with its parameters.
struct Measure {
  std::size_t def = 0;                // index into measure_catalogue()
  std::string parameters;             // as written ("1=0.5,2=3", "5,10"), "" for the defaults
  std::vector<std::int64_t> cutoffs;  // long_cutoffs: sorted, unique, >= 1
  std::vector<double> values;         // double_cutoffs (sorted), doubles
  std::vector<std::pair<std::string, double>> pairs;  // pairs, in the order written
  // ndcg's gain map from `pairs` (names that are whole numbers), sorted by grade
  std::vector<std::pair<std::int64_t, double>> gains;
  // A relevance level of its own (ir_measures' rel=2), else -1 for the evaluation's (-l)
  std::int64_t relevance_level = -1;
  // The output name when it is not trec_eval's ("AP(rel=2)", "RR@10"), and the depth at which
  // the ranking is cut for it (RR@10), 0 for none
  std::string name;
  std::int64_t depth = 0;
  std::size_t position = 0;          // where it first stands in the list of measures as given
  bool explicit_parameters = false;  // given after the name, not the defaults

  const MeasureDef& definition() const { return measure_catalogue()[def]; }
};

// One output column: "P_10", "ndcg", "num_ret".
struct Column {
  std::string name;
  ValueKind value = ValueKind::real;
  Summary summary = Summary::mean;
  bool per_query = true;
  bool whole_number = false;  // printed as an integer, summed (not averaged) over queries
  std::size_t measure = 0;    // Measure::position of the measure it comes from
  std::int64_t cutoff = 0;    // its cut-off (P_10: 10); 0 when it covers the whole ranking
};

// trec_eval's -Z file: "qid measure mean stddev" lines. A value v of a query and measure listed
// there is printed as (v - mean) / stddev; one not listed as -1000000.
struct Zscores {
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> table;
};
// Reads a -Z file; errors are located (source options, with the line).
std::optional<Zscores> read_zscores(std::string_view text, DiagnosticList& errors);

struct EvalOptions {
  std::int64_t relevance_level = 1;         // -l; 0 or more
  bool average_complete = false;            // -c
  bool judged_only = false;                 // -J: unjudged documents are removed from each ranking
  std::int64_t max_per_query = INT64_MAX;   // -M: only the first M ranked documents count
  std::int64_t docs_in_collection = 0;      // -N (utility's fourth coefficient)
  RelFormat rel_format = RelFormat::qrels;  // -R
  std::string only_query;                   // -D level.qid: evaluate this query only
  // Empty: trec_eval's "official" measures, or the set of the relevance format (qrels_jg,
  // prefs) when it is not qrels.
  std::vector<Measure> measures;
  bool query_spans = false;         // keep where each query's lines are in both files
  std::string explain_query;        // also explain this query step by step (ndcg's conventions)
  bool explain_all = false;         // explain every query so (-D N without a query id)
  std::string explain_measure;      // and give the working of this column for it ("map", "P_10")
  std::int64_t explain_cutoff = 0;  // the explanation's k (0: the whole ranking, as ndcg)
  std::optional<Zscores> zscores;   // -Z
  std::size_t results_memory_limit = kResultsMemoryLimit;  // per-query values kept
  // Set by a preset or a convention option (explain.hpp's Options: gain, discount, base, ideal,
  // ties, negativeGains, unjudgedGrade, ndcgWhenIdcgZero): ndcg and ndcg_cut.k then follow
  // these conventions, computed rank by rank as explain() does, instead of trec_eval's. The
  // measure sets the depth, as in trec_eval: ndcg is the whole ranking over the whole ideal,
  // ndcg_cut.k both cut at k. A measure's gain map ("ndcg.1=0.5") overrides the gain.
  std::optional<Options> conventions;
  // Said once per evaluation where this differs from trec_eval 10.0 on purpose.
  std::vector<Diagnostic> notes;
};

// Sets one evaluation option from its text, as the JS API and the command line give it:
//   relevanceLevel    a whole number >= 0 (-l)
//   averageComplete   "true" | "false" (-c)
//   judgedOnly        "true" | "false" (-J)
//   maxPerQuery       a whole number >= 0 (-M)
//   docsInCollection  a whole number >= 0 (-N)
//   onlyQuery         a query id, or "" for all (-D level.qid)
//   relInfoFormat     "qrels" (the default), "qrels_jg" (judgment groups), "prefs" or
//                     "qrels_prefs" (preferences): -R
//   zscores           the text of a -Z file ("" for none)
//   explainQuery      a query id, or "" for none
//   explainAll        "true" | "false": explain every query evaluated (a trace, as -D N)
//   querySpans        "true" | "false": keep where each query's lines are (Evaluation's spans)
//   explainCutoff     the explanation's cut-off k: a whole number >= 0 (0: the whole ranking)
//   explainMeasure    a column ("map", "P_10", "ERR@20") whose working to give for explainQuery
//   preset and the convention options of explain.hpp (not k, idealDepth, rankingNumbers or
//   roundBeforeDividing): set EvalOptions::conventions, starting from trec_eval's.
// Returns an error (source options) naming the option for an unknown name or a bad value;
// `options` is then unchanged.
std::optional<Diagnostic> set_eval_option(EvalOptions& options, std::string_view name,
                                          std::string_view value);

// Sets every option of `values`: a preset first, then the others in order, so that an option
// given beside a preset overrides it. Returns the errors.
DiagnosticList set_eval_options(EvalOptions& options, const std::vector<OptionValue>& values);

// Adds a measure named as trec_eval does ("ndcg_cut.5,10", "P", "ndcg.1=0.5,2=3", a nickname
// such as "official" or "all_trec") or as ir_measures does ("nDCG@10", "AP(rel=2)", "P@10",
// "R@100", "RR", "Rprec", "Bpref", "SetF", ...). Parameters are read as trec_eval reads them
// (a cut-off "23.4" is 23, with a note). Returns an error (source options) for an empty or
// unknown name or a bad parameter. Repeated names merge: their cut-offs are united (trec_eval
// keeps only the first one's parameters; a note says so).
std::optional<Diagnostic> add_measure(EvalOptions& options, std::string_view name);

// A whole request, as the JS API and the command lines give it: each measure (add_measure), then
// every option (set_eval_options). Returns the errors of both, measures first.
DiagnosticList configure_evaluation(EvalOptions& options, const std::vector<std::string>& measures,
                                    const std::vector<OptionValue>& values);

// The working behind one measure's value for one query: a row per ranked document with the
// quantities the value is built from (for AP the precision at each relevant rank, for bpref the
// judged non-relevant documents above each relevant one, for ERR the stopping probabilities),
// and the sum or ratio that gives the value.
struct WorkingRow {
  std::int64_t rank = 0;
  std::string docno;
  std::int64_t grade = 0;      // the qrels grade; -1 not in the qrels, -2 judged negative
  bool counted = false;        // relevant (or, for ERR and nDCG, of positive gain)
  std::vector<double> values;  // one per Working::columns; NaN where it does not apply
};
struct Working {
  std::string column;                // "map", "P_10", "ERR@20"
  std::vector<std::string> columns;  // what each row's values are
  std::vector<WorkingRow> rows;      // the ranking, down to the depth the measure reads
  std::string result;                // how the value follows, in words and numbers
  double value = 0;
};

struct QueryValues {
  std::string qid;
  std::vector<double> values;      // one per column
  std::vector<std::string> texts;  // one per column when a column is text (relstring), else empty
};

// What the session of a later part of a split run kept (Session::absorb): its reader's state
// and its evaluator's, relative to what any evaluator says at its start.
struct RunPart {
  bool regroup_needed = false;
  bool stopped = false;
  std::string run_tag;
  std::vector<std::uint64_t> queries;  // the ids' hashes of the queries handed over
  std::vector<QuerySpan> spans;        // where its queries are, when recorded
  bool spans_given_up = false;
  std::vector<Diagnostic> reader_errors;
  bool reader_errors_whole = true;   // none dropped past the list's limit
  std::vector<QueryValues> results;  // in the order evaluated
  bool results_sorted = true;
  std::vector<std::string> runs_without_qrels;
  std::vector<std::string> negative_only;
  std::size_t negative_only_count = 0;
  bool overflow_reported = false;
  bool gain_order_reported = false;
  bool err_grade_reported = false;
  // Where those are in errors and warnings (SIZE_MAX: not there).
  std::size_t overflow_at = SIZE_MAX;
  std::size_t gain_order_at = SIZE_MAX;
  std::size_t err_grade_at = SIZE_MAX;
  std::vector<Diagnostic> errors;  // the evaluator's, after those of its start
  std::vector<Diagnostic> warnings;
  bool lists_whole = true;
  std::size_t kept = 0;
  // Read from a line whose number was not known (Session::continue_run_at_byte): its lines are
  // numbered from 1, so nothing it says that names a line can be joined.
  bool lines_unknown = false;
  // It met a query whose judgments its session did not keep (Session::keep_part_queries): its
  // values are not what the whole run's reading gives, so it cannot be joined.
  bool missed_judgments = false;
};

struct Evaluation {
  bool ok = false;
  std::vector<Column> columns;
  std::vector<QueryValues> per_query;  // in trec_eval's query order
  std::vector<double> mean;            // the "all" line (sums for whole-number columns)
  // Sample standard deviation (n − 1) of each column's per-query values over the queries
  // averaged; 0 for one query.
  std::vector<double> stdev;
  std::size_t queries_averaged = 0;
  std::string run_tag;   // the tag of the run's last line, as trec_eval's runid
  bool zscores = false;  // values are z-scores (-Z)
  // EvalOptions::explain_query's table: ranked in trec_eval's order, graded by the qrels, linear
  // gain (or ndcg's gain map), log2(rank + 1), ideal from every judged document, whole ideal.
  std::optional<Explanation> explanation;
  // EvalOptions::explain_measure's working for explain_query.
  std::optional<Working> working;
  // With EvalOptions::explain_all, every query's table, in trec_eval's query order.
  std::vector<std::pair<std::string, Explanation>> explanations;
  // With EvalOptions::query_spans, where each query's lines are in the qrels and the run (none
  // when a file had too many stretches to keep, see QuerySpan).
  std::optional<std::vector<QuerySpan>> qrels_spans;
  std::optional<std::vector<QuerySpan>> run_spans;
  std::vector<Diagnostic> errors;
  std::vector<Diagnostic> warnings;
};

// Evaluates queries one at a time as a RunReader hands them over.
class Evaluator {
 public:
  Evaluator(const QrelsReader& qrels, EvalOptions options);
  ~Evaluator();

  void add(const QueryRun& run);
  Evaluation finish(const RunReader& reader);
  // Moves what this evaluator of a later part kept into `out`; takes the queries evaluated in
  // the part of the same run after this one's, as if this one had (Session::absorb). False,
  // changing nothing, when that would not give what one evaluator gives: more diagnostics than
  // a list keeps, or more results than memory allows.
  void part(RunPart& out);
  // Out of line: inlined into Session::absorb_packed, it made one function of their loops, which
  // a wasm engine compiled again, optimised, after the report was printed (pair_with_qrels).
  NDCG_OUT_OF_LINE bool absorb(RunPart& later);

  const std::vector<Column>& columns() const { return columns_; }
  // A query of the run had its judgments dropped (QueryQrels::dropped): it was not evaluated.
  bool missed_judgments() const { return missed_judgments_; }

 private:
  QueryValues evaluate(const QueryRun& run, const QueryQrels& qrels);
  // The parts of add() and evaluate(), and their rare work, out of them: in wasm, each is
  // optimised once it has run for a while, in a time that grows with its size (evaluate()).
  NDCG_OUT_OF_LINE void note_run_without_qrels(const std::string& qid);
  NDCG_OUT_OF_LINE void report_overflow(const std::string& qid);
  NDCG_OUT_OF_LINE void report_results_memory(const QueryRun& run);
  NDCG_OUT_OF_LINE bool rank_order(const QueryRun& run, bool preferences);
  static bool tie_before(const QueryRun& run, bool preferences, std::size_t a, std::size_t b);
  NDCG_OUT_OF_LINE void sort_ranking(const QueryRun& run, bool preferences);
  MeasureContext context_for(const Ranked& r, std::int64_t level) const;
  NDCG_OUT_OF_LINE void rank_against(const QueryRun& run, const QueryQrels& judged,
                                     std::vector<std::string_view>* docnos, Ranked& r) const;
  NDCG_OUT_OF_LINE void rank_against_groups(const QueryRun& run, const QueryQrels& qrels,
                                            std::vector<Ranked>& groups, Ranked& ranked) const;
  NDCG_OUT_OF_LINE void note_negative_only(const std::string& qid);
  NDCG_OUT_OF_LINE static void cut_ranking(const Ranked& ranked, std::size_t depth, Ranked& cut);
  bool has_repeat(const QueryRun& run, const std::vector<std::uint32_t>& order);
  bool has_repeated_docno(const QueryRun& run, const std::vector<std::uint32_t>& order);
  NDCG_OUT_OF_LINE void report_repeat(const QueryRun& run, const std::vector<std::uint32_t>& order);
  // finish()'s loops over the queries, each a function of its own. A wasm engine compiles a
  // function again, optimised, once it has run long enough: finish() whole, messages and all,
  // took 16-23 ms to compile so, after the report was printed, and Node's exit waited for it.
  // The queries' values in trec_eval's order, paired with the qrels (and -c's stand-ins); the
  // qrels' queries without results in `missing`.
  NDCG_OUT_OF_LINE void pair_with_qrels(Evaluation& out, std::vector<std::string>& missing);
  NDCG_OUT_OF_LINE QueryValues* const* pair_query(const std::string& qid, const QueryQrels& qrels,
                                                  QueryValues* const* next, QueryValues* const* end,
                                                  Evaluation& out,
                                                  std::vector<std::string>& missing);
  // -c's values for a query of the qrels that the run does not have.
  NDCG_OUT_OF_LINE QueryValues stand_in(const std::string& qid, const QueryQrels& qrels);
  // The "all" line (means, sums, counts) and the standard deviations of out.per_query.
  NDCG_OUT_OF_LINE void summarize(Evaluation& out) const;
  QueryValues zeroed(const std::string& qid) const;  // every column 0 (or "")
  NDCG_OUT_OF_LINE QueryValues evaluate_preferences(const QueryRun& run,
                                                    const std::vector<std::uint32_t>& order,
                                                    const QueryQrels& qrels);
  // The rare work of evaluate(), kept out of it (see NDCG_OUT_OF_LINE); `named`: the query is
  // the one explainQuery names.
  NDCG_OUT_OF_LINE void keep_explanations(const QueryRun& run,
                                          const std::vector<std::uint32_t>& order,
                                          const QueryQrels& qrels, bool named);
  NDCG_OUT_OF_LINE void conventions_values(const Measure& m, const QueryRun& run,
                                           const QueryQrels& qrels, double* values) const;
  NDCG_OUT_OF_LINE void report_err_grade(const std::string& qid, std::int64_t grade);
  NDCG_OUT_OF_LINE void keep_working(const Measure& m, const Ranked& basis, const MeasureContext& c,
                                     const std::vector<std::string_view>& docnos,
                                     const double* values);
  NDCG_OUT_OF_LINE void check_gains(const Measure& m, const Ranked& ranked, const std::string& qid,
                                    double* values, std::size_t width);
  NDCG_OUT_OF_LINE Explanation explain_one(const QueryRun& run,
                                           const std::vector<std::uint32_t>& order,
                                           const QueryQrels& qrels);
  // The query under EvalOptions::conventions (ranked by score with its tie rule), with the
  // measure's gain map when it has one, the whole ranking and ideal unless `cutoff` > 0.
  NDCG_OUT_OF_LINE Explanation explain_conventions(const QueryRun& run, const QueryQrels& qrels,
                                                   const Measure* gain_map, std::int64_t cutoff,
                                                   Detail detail = Detail::whole) const;

  const QrelsReader& qrels_;
  // The qrels query after the one last found: runs and qrels most often list their queries in
  // the same order, and it is tried before the map's search (a dozen comparisons of ids).
  std::map<std::string, QueryQrels>::const_iterator next_qrels_;
  EvalOptions options_;
  std::vector<Column> columns_;
  std::vector<std::size_t> widths_;   // the number of columns of each measure, in their order
  bool any_text_ = false;             // a column holds text for each query (relstring)
  std::vector<QueryValues> results_;  // in the order evaluated
  bool results_sorted_ = true;        // ... which is already the order of their ids
  std::optional<Explanation> explanation_;
  std::map<std::string, Explanation> explanations_;  // explain_all
  // Scratch space of evaluate(), kept from query to query: the ranking, and its docnos sorted.
  std::vector<std::uint32_t> order_;
  std::vector<detail::ScoreKey> score_keys_, score_keys_spare_;  // for sorting order_ by score
  std::vector<std::uint32_t> seen_;  // an open-addressed table of docno hashes' high halves
  std::optional<Working> working_;
  DiagnosticList errors_;
  DiagnosticList warnings_;
  std::unordered_set<std::string> runs_without_qrels_;
  std::size_t kept_ = 0;  // estimated bytes of results_ and runs_without_qrels_
  bool overflow_reported_ = false;
  bool gains_overflowed_ = false;  // in the query being evaluated
  bool gain_order_reported_ = false;
  bool err_grade_reported_ = false;
  // Where those said-once diagnostics are in errors_ and warnings_ (absorb keeps one of each).
  std::size_t overflow_at_ = SIZE_MAX;
  std::size_t gain_order_at_ = SIZE_MAX;
  std::size_t err_grade_at_ = SIZE_MAX;
  std::size_t initial_errors_ = 0;  // what the constructor said (about the options)
  std::size_t initial_warnings_ = 0;
  std::vector<std::string> negative_only_;  // queries judged only negative (the first few)
  std::size_t negative_only_count_ = 0;
  bool missed_judgments_ = false;
};

// One evaluation fed in chunks: the qrels, then the run, read again from its start for as long
// as finish_run() asks. A run grouped by query is read once, a query at a time; one whose
// queries are interleaved is read a second time, keeping every query until its end. This is
// the only place that knows the protocol; the JS API and the tests drive it.
//
//   Session s(options);
//   for (chunk : qrels) s.feed_qrels(chunk);
//   s.finish_qrels();
//   do { for (chunk : run) s.feed_run(chunk); } while (s.finish_run());
//   Evaluation e = s.result();
//   s.next_run();  // another run against the same qrels, fed the same way
class Session {
 public:
  explicit Session(EvalOptions options);
  ~Session();

  void feed_qrels(std::string_view chunk);
  void finish_qrels();
  void feed_run(std::string_view chunk);
  // Ends a reading of the run; true when it must be fed again from its start.
  bool finish_run();
  Evaluation result();
  // Starts the evaluation of another run against the same qrels (read once), after result():
  // feed it as the first, with feed_run and finish_run.
  void next_run();

  // One run read by two sessions side by side (two threads, or two instances of the core):
  // this one reads the run from its start up to a line where a query starts (query_boundary),
  // `later` from that line to the end, after continue_run(that line's number; any time before
  // its run is fed); each reads the
  // qrels and finishes its run. absorb(later) then takes later's queries as if this session had
  // read them, so that result() is what one session reading the whole run gives, byte for byte.
  // It returns false, and the run must be read again by one session, when the parts cannot be
  // joined so: a part needed regrouping (finish_run() said true), a query is in both parts, a
  // reader stopped, or more diagnostics or results than one session keeps.
  // can_split(): whether the options allow it (no explanation, no -D query). With query spans,
  // continue_run also takes the byte offset of that line, so the later part's spans are the
  // whole file's.
  bool can_split() const;
  void continue_run(std::uint32_t first_line, std::uint64_t first_byte = 0);
  // continue_run when the number of that line is not known (counting the lines before it would
  // read the first part twice): absorb() then joins the part only when nothing it says names a
  // line, which is so for a run without errors; else the run is read again by one session.
  void continue_run_at_byte(std::uint64_t first_byte);
  // Keeps the judgments of only the queries this part's reading is likely to need (PartQueries,
  // from lines sampled from the run: `later_part` says which part this session reads), so that
  // the two sessions of one run hold about half the qrels each. Before the qrels are fed; not
  // for -c (which evaluates every query of the qrels), judgment groups or preferences, where it
  // keeps every query's. A part that meets a query it dropped is not joined: absorb() says
  // false. Like share_qrels, the result is then only absorb()'s.
  void keep_part_queries(std::string_view first, std::string_view later, bool later_part);
  bool absorb(Session& later);
  // The same across instances of the core (workers): the later session packs its part as bytes
  // (little-endian, starting "ndcg-part3"), and this one absorbs them. False also for bytes that
  // are not such a part (cut short, from another version): the run is then read in one.
  std::string pack_part();
  bool absorb_packed(std::string_view bytes);
  // In one process (threads), the later session can use the first's qrels instead of reading
  // them: called in place of feed_qrels and finish_qrels, once `first` has finished its qrels.
  // The qrels are only read from then on, by both, so threads may share them; `first` must
  // outlive this session. The result is still only absorb()'s.
  void share_qrels(const Session& first);
  // A later part that shares qrels may also be fed before they are read (its thread then starts
  // at once): after read_run_before_qrels(), in place of share_qrels, each query of the part is
  // kept as it ends; share_qrels(), before finish_run(), then evaluates those, in order, and the
  // rest as they come. waiting_bytes(): about how much the kept queries hold, for a caller that
  // bounds it (by waiting for the qrels).
  void read_run_before_qrels();
  std::size_t waiting_bytes() const { return waiting_bytes_; }

 private:
  void start_run(bool buffer_all);
  void start_reader(bool buffer_all);
  NDCG_OUT_OF_LINE void keep_waiting(const QueryRun& q);
  const QrelsReader& qrels() const { return shared_qrels_ != nullptr ? *shared_qrels_ : qrels_; }

  EvalOptions options_;
  QrelsReader qrels_;
  const QrelsReader* shared_qrels_ = nullptr;  // share_qrels's, else qrels_ is read
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<RunReader> run_;
  std::uint32_t first_line_ = 0;  // continue_run's, 0 when the run is read from its start
  std::uint64_t first_byte_ = 0;
  bool lines_unknown_ = false;     // continue_run_at_byte's
  std::vector<QueryRun> waiting_;  // read_run_before_qrels's queries, until share_qrels
  std::size_t waiting_bytes_ = 0;

  // What this later part hands over (absorb, pack_part): its reader's and evaluator's parts, and
  // what the session itself knows of them.
  void part(RunPart& out);
  bool absorb_part(RunPart& later);
};

// Where, in `window` (bytes of a run from some offset on, starting anywhere in a line), a line
// starts whose query differs from the query of the line before it (comment and blank lines
// skipped): its offset in the window, never in the window's first, partial, line. nullopt when
// there is none, or the window holds no whole line to tell. A split there keeps each query in
// one part of a run grouped by query.
std::optional<std::size_t> query_boundary(std::string_view window);

// The whole pipeline over two complete texts (a Session).
Evaluation evaluate(std::string_view qrels_text, std::string_view run_text,
                    const EvalOptions& options);

// trec_eval's text output: "%-22s\t%s\t%6.4f" lines, per query (when `per_query`) then "all"
// (unless `summary` is false, -n). Whole numbers print as integers, z-scores with a "Z" before
// the name, relstring quoted; a NaN prints as "-nan", as trec_eval's 0/0 does on x86-64.
std::string format_trec(const Evaluation& evaluation, bool per_query, bool summary = true);

// format_trec's lines a piece at a time, for a writer that need not hold them all: a run of
// 100,000 queries' -q lines are a hundred megabytes. Holds a reference to the evaluation.
class TrecLines {
 public:
  static constexpr std::size_t kAll = static_cast<std::size_t>(-1);
  TrecLines(const Evaluation& evaluation, bool per_query, bool summary);
  // Appends the next lines to `out`, whole queries until it has grown by `bytes` or more, then
  // the summary: false once there is nothing left to append.
  bool next(std::string& out, std::size_t bytes);

 private:
  std::size_t size() const;  // about the bytes left to write

  const Evaluation* e_;  // a pointer, not a reference: a Report holding this is assignable
  bool summary_;
  bool done_ = false;
  std::vector<std::string> names_;  // each column's name, padded
  std::size_t query_bytes_ = 0;     // of a query's lines, with their tabs, newlines and most values
  std::size_t lines_ = 0;           // a query's lines
  std::size_t query_ = 0;           // the next query to write
};

}  // namespace ndcg::trec
