// ndcg-calc, native: the command line of wasm/cli.mjs built from the same core, for those who
// prefer a binary. Arguments and output come from ndcg/cli.hpp, as the Node program's do; this
// file only reads the files (a path or stdin, gzipped or not) and writes the report.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ndcg/cli.hpp"
#include "ndcg/compare.hpp"
#include "ndcg/trec.hpp"

#ifndef NDCG_VERSION
#error "NDCG_VERSION is set by CMakeLists.txt from the project's version"
#endif

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

// One reading of a file: its bytes in chunks, inflated when they start with gzip's magic bytes.
class Reader {
 public:
  // The buffers are left as allocated, not zeroed: a page of them the program never writes is
  // never touched. Zeroed, the two readers of a 64 KB run and its qrels touched 2 MiB, 512 pages,
  // which took the kernel longer than the evaluation (a third of the program's time).
  explicit Reader(int fd) : fd_(fd), raw_(std::make_unique_for_overwrite<char[]>(kChunk)) {}
  ~Reader() {
    if (inflating_) inflateEnd(&stream_);
  }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // The next chunk (empty at the end), valid until the next call: the bytes as read, or as
  // inflated, in this reader's buffers (not copied out: a copy of each 1 MiB read was 3 % of
  // the native program's time). False with `error` set when reading fails.
  bool next(std::string_view& out, std::string& error) {
    out = {};
    if (!started_ && !start(error)) return false;
    if (!inflating_) {
      if (pending_ > 0) {
        out = std::string_view(raw_.get(), pending_);
        pending_ = 0;
        return true;
      }
      const ssize_t n = read_some(raw_.get(), kChunk, error);
      if (n < 0) return false;
      out = std::string_view(raw_.get(), static_cast<std::size_t>(n));
      return true;
    }
    if (!inflated_) inflated_ = std::make_unique_for_overwrite<char[]>(kChunk);
    stream_.next_out = reinterpret_cast<Bytef*>(inflated_.get());
    stream_.avail_out = static_cast<uInt>(kChunk);
    while (stream_.avail_out == kChunk) {
      if (stream_.avail_in == 0) {
        if (pending_ == 0) {
          const ssize_t n = read_some(raw_.get(), kChunk, error);
          if (n < 0) return false;
          if (n == 0) {
            if (!member_ended_) {
              error = "the gzipped data ends in the middle";
              return false;
            }
            break;
          }
          pending_ = static_cast<std::size_t>(n);
        }
        stream_.next_in = reinterpret_cast<Bytef*>(raw_.get());
        stream_.avail_in = static_cast<uInt>(pending_);
        pending_ = 0;
      }
      member_ended_ = false;
      const int status = inflate(&stream_, Z_NO_FLUSH);
      if (status == Z_STREAM_END) {
        // Several gzip members one after the other (cat a.gz b.gz) are one file.
        member_ended_ = true;
        inflateReset(&stream_);
      } else if (status != Z_OK && status != Z_BUF_ERROR) {
        error = std::string("the gzipped data is damaged (") +
                (stream_.msg ? stream_.msg : "zlib") + ")";
        return false;
      }
    }
    out = std::string_view(inflated_.get(), kChunk - stream_.avail_out);
    return true;
  }

 private:
  ssize_t read_some(char* into, std::size_t size, std::string& error) const {
    for (;;) {
      const ssize_t n = ::read(fd_, into, size);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return -1;
    }
  }
  bool start(std::string& error) {
    started_ = true;
    // The first two bytes, which a pipe may hand over one at a time.
    while (pending_ < 2) {
      const ssize_t n = read_some(raw_.get() + pending_, kChunk - pending_, error);
      if (n < 0) return false;
      if (n == 0) break;
      pending_ += static_cast<std::size_t>(n);
    }
    if (pending_ >= 2 && static_cast<unsigned char>(raw_[0]) == 0x1f &&
        static_cast<unsigned char>(raw_[1]) == 0x8b) {
      std::memset(&stream_, 0, sizeof stream_);
      if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) {
        error = "cannot start inflating gzipped data";
        return false;
      }
      inflating_ = true;
    }
    return true;
  }

  int fd_;
  std::unique_ptr<char[]> raw_;       // kChunk bytes
  std::unique_ptr<char[]> inflated_;  // kChunk bytes, once the file is gzipped
  std::size_t pending_ = 0;           // bytes of raw_ read but not yet handed over or inflated
  bool started_ = false;
  bool inflating_ = false;
  bool member_ended_ = false;
  z_stream stream_{};
};

// A file named on the command line. A path is opened anew for each reading; what can be read
// only once (stdin, a pipe) is copied to a temporary file as it passes, for a second reading.
class Input {
 public:
  // Empty when it opens; else the usage error.
  std::string open(const std::string& path) {
    if (path == "-") {
      fd_ = STDIN_FILENO;
      // Redirected from a regular file (ndcg-calc qrels - < run): read again from where the
      // reading started, with no copy (copying a 174 MB run took longer than evaluating it).
      struct stat info {};
      if (::fstat(fd_, &info) == 0 && S_ISREG(info.st_mode)) {
        const off_t at = ::lseek(fd_, 0, SEEK_CUR);
        if (at >= 0 && at <= info.st_size) {
          start_ = at;
          size_ = static_cast<std::uint64_t>(info.st_size - at);
          return {};
        }
      }
      return spool_start();
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
      return "cannot read '" + path +
             "': " + (errno == ENOENT ? "no such file" : std::strerror(errno));
    }
    if (S_ISDIR(info.st_mode)) return "'" + path + "' is a directory, not a file";
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return "cannot read '" + path + "': " + std::strerror(errno);
    size_ = S_ISREG(info.st_mode) ? static_cast<std::uint64_t>(info.st_size) : 0;
    regular_ = S_ISREG(info.st_mode);
    return S_ISREG(info.st_mode) ? std::string() : spool_start();
  }
  ~Input() {
    if (fd_ > STDIN_FILENO) ::close(fd_);
    if (spool_ != nullptr) std::fclose(spool_);
  }

  std::uint64_t size() const { return size_; }
  // A regular file: another Input can open it and read it too (stdin and pipes are read once).
  bool regular() const { return regular_; }

  // Calls feed(chunk, bytes so far) for each chunk of one whole reading; the error, if any.
  template <class Feed>
  std::string read(Feed&& feed) {
    const bool again = readings_++ > 0;
    int fd = fd_;
    if (again) {
      if (spool_ != nullptr) {
        std::fflush(spool_);
        fd = ::fileno(spool_);
        ::lseek(fd, 0, SEEK_SET);  // the copy starts where the reading did
        spooling_ = false;
      } else {
        ::lseek(fd, start_, SEEK_SET);
      }
    }
    Reader reader(fd);
    std::string_view chunk;
    std::string error;
    std::uint64_t bytes = 0;
    // The copy for a second reading holds the inflated text, so it is read without gzip.
    while (reader.next(chunk, error) && !chunk.empty()) {
      if (spooling_ && std::fwrite(chunk.data(), 1, chunk.size(), spool_) != chunk.size()) {
        return "cannot keep a copy for a second reading: " + std::string(std::strerror(errno));
      }
      bytes += chunk.size();
      feed(chunk, bytes);
    }
    return error;
  }

 private:
  std::string spool_start() {
    spool_ = std::tmpfile();
    if (spool_ == nullptr)
      return "cannot make a temporary file: " + std::string(std::strerror(errno));
    spooling_ = true;
    return {};
  }

  int fd_ = -1;
  off_t start_ = 0;  // where the file's reading starts (stdin may have been read from before)
  std::uint64_t size_ = 0;
  bool regular_ = false;
  std::FILE* spool_ = nullptr;
  bool spooling_ = false;
  int readings_ = 0;
};

// Reading progress on stderr: one updating line on a terminal, a line per 10 % otherwise.
class Progress {
 public:
  explicit Progress(bool on) : on_(on), tty_(::isatty(STDERR_FILENO) == 1) {}
  void update(const char* file, std::uint64_t bytes, std::uint64_t total) {
    if (!on_) return;
    const std::lock_guard<std::mutex> lock(mutex_);  // runs may be read by threads side by side
    const long percent = total > 0 ? static_cast<long>(100 * bytes / total) : -1;
    const std::string step =
        std::string(file) + " " + std::to_string(tty_ ? percent : percent / 10 * 10);
    if (step == shown_) return;
    shown_ = step;
    std::string text = std::string("ndcg-calc: reading ") + file + ": ";
    if (percent >= 0) text += std::to_string(percent) + "% of ";
    text += std::to_string((total > 0 ? total : bytes) >> 20) + " MB";
    std::fputs(tty_ ? ("\r" + text + "\x1b[K").c_str() : (text + "\n").c_str(), stderr);
  }
  void done() {
    if (on_ && tty_) std::fputs("\n", stderr);
  }

 private:
  bool on_;
  bool tty_;
  std::string shown_;
  std::mutex mutex_;
};

bool write_all(std::FILE* to, const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), to) == text.size() && std::fflush(to) == 0;
}

int usage_error(const std::string& message) {
  std::fputs(ndcg::cli::usage_error(message).c_str(), stderr);
  return 2;
}

int print(ndcg::cli::Report report) {
  std::fputs(report.err.c_str(), stderr);
  // The results (report.rest) a megabyte at a time: 100,000 queries' -q lines are 100 MB.
  std::string piece = std::move(report.out);
  do {
    if (!write_all(stdout, piece)) {
      // A reader that stops early (| head) is not a failure of ours.
      if (errno == EPIPE) return report.status;
      std::fprintf(stderr, "ndcg-calc: cannot write the results: %s\n", std::strerror(errno));
      return 1;
    }
    piece.clear();
  } while (report.rest && report.rest(piece, ndcg::cli::kPieceBytes));
  return report.status;
}

// A comparison's runs, evaluated (inputs[1..] into evaluations[0..]): by threads side by side
// when every file is a regular one and there are two runs or more and two cores or more (one
// thread per core and one more, each with a session of its own, taking the largest run left),
// else here in turn; the qrels are read once either way, and the threads share them. Returns
// the index of the first input (in file order) that could not be read and its error, or
// inputs.size().
std::size_t evaluate_runs(std::vector<Input>& inputs, const ndcg::trec::EvalOptions& options,
                          const std::vector<std::string>& files, Progress& progress,
                          std::vector<ndcg::trec::Evaluation>& evaluations, std::string& error) {
  const std::size_t runs = inputs.size() - 1;
  evaluations.assign(runs, {});
  std::vector<std::string> errors(inputs.size());
  // Reads the qrels into `session`; false when they cannot be read.
  const auto read_qrels = [&](ndcg::trec::Session& session) {
    std::string qrels_error = inputs[0].read([&](std::string_view chunk, std::uint64_t bytes) {
      session.feed_qrels(chunk);
      progress.update("qrels", bytes, inputs[0].size());
    });
    if (!qrels_error.empty()) {
      errors[0] = std::move(qrels_error);
      return false;
    }
    session.finish_qrels();
    return true;
  };
  // Reads the runs that `next` gives (input indexes), one after another, with the qrels of
  // `shared` or else its own; stops at the first input it cannot read.
  const auto work = [&](auto&& next, const ndcg::trec::Session* shared) {
    ndcg::trec::Session session(options);
    if (shared != nullptr) {
      session.share_qrels(*shared);
    } else if (!read_qrels(session)) {
      return;
    }
    bool first = true;
    for (std::size_t i = next(); i < inputs.size(); i = next()) {
      if (!first) session.next_run();
      first = false;
      do {
        std::string e = inputs[i].read([&](std::string_view chunk, std::uint64_t bytes) {
          session.feed_run(chunk);
          progress.update(files[i].c_str(), bytes, inputs[i].size());
        });
        if (!e.empty()) {
          errors[i] = std::move(e);
          return;
        }
      } while (session.finish_run());
      evaluations[i - 1] = session.result();
    }
  };
  const unsigned cores = std::thread::hardware_concurrency();
  const bool regular =
      std::all_of(inputs.begin(), inputs.end(), [](const Input& input) { return input.regular(); });
  const std::size_t lanes = std::min<std::size_t>(runs, cores + 1);
  ndcg::trec::Session qrels(options);  // for the threads: the qrels, read once
  if (!regular || runs < 2 || cores < 2) {
    std::size_t at = 1;
    work([&] { return at < inputs.size() ? at++ : inputs.size(); }, nullptr);
  } else if (read_qrels(qrels)) {
    std::vector<std::size_t> order(runs);
    std::iota(order.begin(), order.end(), std::size_t{1});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return inputs[a].size() > inputs[b].size();
    });
    std::atomic<std::size_t> taken{0};
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < lanes; ++t) {
      threads.emplace_back([&] {
        work(
            [&] {
              const std::size_t k = taken.fetch_add(1);
              return k < order.size() ? order[k] : inputs.size();
            },
            &qrels);
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!errors[i].empty()) {
      error = errors[i];
      return i;
    }
  }
  return inputs.size();
}

// ndcg-calc compare QRELS RUN_A RUN_B ...: the runs evaluated (evaluate_runs), then compared.
int compare(const ndcg::cli::Arguments& args) {
  std::vector<Input> inputs(args.files.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string error = inputs[i].open(args.files[i]);
    if (!error.empty()) {
      std::fprintf(stderr, "ndcg-calc: %s\n", error.c_str());
      return 2;
    }
  }
  ndcg::trec::EvalOptions options;
  ndcg::compare::Options compare_options;
  const ndcg::DiagnosticList option_errors = ndcg::compare::configure(
      options, compare_options, args.measures, args.options, args.compare_options);
  const std::vector<std::string> runs =
      ndcg::cli::run_names(std::vector<std::string>(args.files.begin() + 1, args.files.end()));
  std::vector<ndcg::trec::Evaluation> evaluations;
  if (!option_errors.empty()) {
    evaluations.emplace_back().errors = option_errors.finish();
    return print(ndcg::cli::compare_report(args, evaluations, args.files[0], runs));
  }
  Progress progress(args.progress);
  std::string error;
  const std::size_t failed =
      evaluate_runs(inputs, options, args.files, progress, evaluations, error);
  progress.done();
  if (failed < inputs.size()) {
    std::fprintf(stderr, "ndcg-calc: %s: the %s file could not be read: %s\n",
                 args.files[failed].c_str(), failed == 0 ? "qrels" : "run", error.c_str());
    return 1;
  }
  return print(ndcg::cli::compare_report(args, evaluations, args.files[0], runs));
}

// Bytes [from, to) of the regular file at `path`, in chunks; the error, if any.
template <class Feed>
std::string read_range(const std::string& path, std::uint64_t from, std::uint64_t to, Feed&& feed) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  // 1 MiB at a time; less for a shorter range (a window of split_points), which is read often.
  // The thread's buffer serves each of its readings, not zeroed: a split run is read in dozens
  // of pieces, and a new buffer for each was a tenth of the program's page faults.
  thread_local std::unique_ptr<char[]> buffer;
  thread_local std::size_t capacity = 0;
  const auto size =
      static_cast<std::size_t>(std::min<std::uint64_t>(std::uint64_t{1} << 20, to - from));
  if (capacity < size) {
    buffer.reset(new char[size]);
    capacity = size;
  }
  std::string error;
  std::uint64_t at = from;
  while (at < to) {
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size, to - at));
    const ssize_t got = ::pread(fd, buffer.get(), want, static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      error = got < 0 ? std::strerror(errno) : "the file ended early";
      break;
    }
    at += static_cast<std::uint64_t>(got);
    feed(std::string_view(buffer.get(), static_cast<std::size_t>(got)), at - from);
  }
  ::close(fd);
  return error;
}

// Runs at least this large are split between two threads when they can be (below).
std::uint64_t split_threshold() {
  const char* set = std::getenv("NDCG_CALC_SPLIT_BYTES");
  if (set == nullptr || *set == '\0') return std::uint64_t{16} << 20;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(set, &end, 10);
  return end != nullptr && *end == '\0' ? value : std::uint64_t{16} << 20;
}

// The pieces a split run is read in (split_points): about this many bytes each (fewer for a
// lower NDCG_CALC_SPLIT_BYTES, so that the tests' small runs are read in many), from 2 to
// kMostPieces. Each thread takes the next piece as it finishes one, so they finish within about
// a piece of each other.
constexpr std::uint64_t kPieceBytes = std::uint64_t{2} << 20;
constexpr std::uint64_t kMostPieces = 128;

// Where a large run is split between two threads: a regular file, not gzipped, of at least
// split_threshold() bytes, on two cores or more, with options that allow it
// (trec::Session::can_split), in pieces that start where a query starts (trec::query_boundary,
// at the first boundary past each even share of the file). The pieces' starts, 0 first, and the
// run's size after them; nullopt when the run is read in one.
std::optional<std::vector<std::uint64_t>> split_points(const Input& run, const std::string& path,
                                                       const ndcg::trec::EvalOptions& options) {
  const std::uint64_t size = run.size();
  const std::uint64_t threshold = split_threshold();
  if (!run.regular() || size < threshold || std::thread::hardware_concurrency() < 2 ||
      !ndcg::trec::Session(options).can_split()) {
    return std::nullopt;
  }
  // Gzip cannot be read from the middle.
  std::string head;
  if (!read_range(path, 0, 2, [&](std::string_view c, std::uint64_t) { head += c; }).empty() ||
      (head.size() == 2 && head[0] == '\x1f' && head[1] == '\x8b')) {
    return std::nullopt;
  }
  const std::uint64_t piece_bytes =
      std::max<std::uint64_t>(1, std::min(kPieceBytes, threshold / 2));
  const std::uint64_t pieces = std::clamp<std::uint64_t>(size / piece_bytes, 2, kMostPieces);
  std::vector<std::uint64_t> starts{0};
  for (std::uint64_t k = 1; k < pieces; ++k) {
    const std::uint64_t from = std::max(size / pieces * k, starts.back());
    // A query's lines most often fit in 64 KiB: that much first, then 1 MiB.
    for (const std::uint64_t bytes : {std::uint64_t{1} << 16, std::uint64_t{1} << 20}) {
      std::string window;
      if (!read_range(path, from, std::min(size, from + bytes),
                      [&](std::string_view c, std::uint64_t) { window += c; })
               .empty()) {
        return std::nullopt;
      }
      if (const std::optional<std::size_t> boundary = ndcg::trec::query_boundary(window)) {
        if (from + *boundary > starts.back()) starts.push_back(from + *boundary);
        break;
      }
      if (window.size() < bytes) break;
    }
  }
  if (starts.size() < 2) return std::nullopt;
  starts.push_back(size);
  return starts;
}

// How much of the run the other thread keeps waiting for the qrels, at most, before it waits
// for them itself (trec::Session::read_run_before_qrels).
constexpr std::size_t kMostWaitingBytes = std::size_t{64} << 20;

// The run read by two threads in pieces (split_points): this one reads the qrels, then pieces
// from the front, one after another, into one session; the other reads pieces from the back,
// each into a session of its own, from the start, while the qrels are still being read
// (trec::Session::read_run_before_qrels; it shares them once they are, trec::Session::
// share_qrels). Each takes the next piece as it finishes one, until they meet, so that neither
// waits long for the other. This one then takes the other's pieces in the run's order
// (trec::Session::absorb), without the number of their first lines (as Node's worker reads its
// part), so the output is one session's. `read_qrels(first)` feeds the qrels to `first` (and
// returns the error, if any); an error, the qrels' or the run's, goes to `error`, and which file
// it was to `failed`. nullopt when the parts cannot be joined (a run not grouped by query, or a
// later part that names a line): it is then read in one.
template <class ReadQrels>
std::optional<ndcg::trec::Evaluation> evaluate_split(ReadQrels&& read_qrels,
                                                     const std::string& path,
                                                     const std::vector<std::uint64_t>& starts,
                                                     const ndcg::trec::EvalOptions& options,
                                                     Progress& progress, std::string& error,
                                                     const char*& failed) {
  const std::size_t pieces = starts.size() - 1;
  const std::uint64_t size = starts.back();
  ndcg::trec::Session first(options);
  std::vector<std::unique_ptr<ndcg::trec::Session>> later(pieces);  // the other thread's, by piece
  std::mutex claims;
  std::size_t front = 0;      // the next piece this thread reads
  std::size_t back = pieces;  // the other thread has taken pieces [back, pieces)
  bool stop = false;          // a reading failed: no more pieces are taken
  const auto claim_front = [&]() -> std::optional<std::size_t> {
    const std::lock_guard<std::mutex> lock(claims);
    if (stop || front >= back) return std::nullopt;
    return front++;
  };
  // Never the first piece: this thread's session reads the run from its start.
  const auto claim_back = [&]() -> std::optional<std::size_t> {
    const std::lock_guard<std::mutex> lock(claims);
    if (stop || back <= std::max<std::size_t>(front, 1)) return std::nullopt;
    return --back;
  };
  const auto stop_claims = [&] {
    const std::lock_guard<std::mutex> lock(claims);
    stop = true;
  };
  std::atomic<std::uint64_t> read{0};
  // The run's reading is shown once the qrels' is done (before, both would take turns on the
  // one line of progress).
  std::atomic<bool> showing_run{false};
  const auto count = [&](std::size_t bytes) {
    const std::uint64_t total = read += bytes;
    if (showing_run) progress.update("run", total, size);
  };
  std::string later_error;
  bool later_regroups = false;
  std::promise<void> qrels_read;
  std::shared_future<void> qrels = qrels_read.get_future().share();
  std::thread other([&] {
    const auto qrels_ready = [&] {
      return qrels.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    };
    const auto finish = [&](std::size_t piece, std::unique_ptr<ndcg::trec::Session> session) {
      if (session->finish_run()) later_regroups = true;
      later[piece] = std::move(session);
    };
    // Pieces read before the qrels, finished once they are read (a session shares the qrels
    // before its last query is handed over), and what their queries hold meanwhile.
    std::vector<std::pair<std::size_t, std::unique_ptr<ndcg::trec::Session>>> waiting;
    std::size_t waiting_bytes = 0;
    const auto finish_waiting = [&] {
      for (auto& [piece, session] : waiting) {
        session->share_qrels(first);
        finish(piece, std::move(session));
      }
      waiting.clear();
      waiting_bytes = 0;
    };
    while (const std::optional<std::size_t> piece = claim_back()) {
      auto session = std::make_unique<ndcg::trec::Session>(options);
      session->continue_run_at_byte(starts[*piece]);
      bool shared = qrels_ready();
      if (shared) {
        finish_waiting();
        session->share_qrels(first);
      } else {
        session->read_run_before_qrels();
      }
      const std::string unread = read_range(
          path, starts[*piece], starts[*piece + 1], [&](std::string_view chunk, std::uint64_t) {
            session->feed_run(chunk);
            count(chunk.size());
            if (!shared &&
                (waiting_bytes + session->waiting_bytes() > kMostWaitingBytes || qrels_ready())) {
              qrels.wait();
              finish_waiting();
              session->share_qrels(first);
              shared = true;
            }
          });
      if (!unread.empty()) {
        later_error = unread;
        stop_claims();
        return;
      }
      if (shared) {
        finish(*piece, std::move(session));
      } else {
        waiting_bytes += session->waiting_bytes();
        waiting.emplace_back(*piece, std::move(session));
      }
    }
    if (!waiting.empty()) {
      qrels.wait();
      finish_waiting();
    }
  });
  error = read_qrels(first);
  first.finish_qrels();
  qrels_read.set_value();
  showing_run = true;
  if (!error.empty()) {
    failed = "qrels";
    stop_claims();
    other.join();
    return ndcg::trec::Evaluation{};  // the caller reports the error
  }
  while (const std::optional<std::size_t> piece = claim_front()) {
    error = read_range(path, starts[*piece], starts[*piece + 1],
                       [&](std::string_view chunk, std::uint64_t) {
                         first.feed_run(chunk);
                         count(chunk.size());
                       });
    if (!error.empty()) {
      stop_claims();
      break;
    }
  }
  const bool first_regroups = error.empty() && first.finish_run();
  other.join();
  if (error.empty()) error = later_error;
  if (!error.empty()) {
    failed = "run";
    return ndcg::trec::Evaluation{};  // the caller reports the error
  }
  if (first_regroups || later_regroups) return std::nullopt;
  for (std::unique_ptr<ndcg::trec::Session>& piece : later) {
    if (piece != nullptr && !first.absorb(*piece)) return std::nullopt;
  }
  return first.result();
}

int run(const std::vector<std::string>& argv) {
  const ndcg::cli::Parsed parsed = ndcg::cli::parse_arguments(argv);
  if (!parsed.arguments) return usage_error(parsed.error);
  ndcg::cli::Arguments args = *parsed.arguments;
  if (args.command == ndcg::cli::Command::compare) {
    if (args.help) return write_all(stdout, std::string(ndcg::cli::compare_usage()) + "\n") ? 0 : 1;
    return compare(args);
  }
  if (args.help) {
    return write_all(stdout, ndcg::cli::help(args.measures)) ? 0 : 1;
  }
  if (args.version) {
    return write_all(stdout, "ndcg-calc " NDCG_VERSION " (trec_eval 10.0's measures and flags)\n")
               ? 0
               : 1;
  }
  Input qrels;
  Input run_file;
  for (auto [input, path] :
       {std::pair{&qrels, &args.files[0]}, std::pair{&run_file, &args.files[1]}}) {
    const std::string error = input->open(*path);
    if (!error.empty()) {
      std::fprintf(stderr, "ndcg-calc: %s\n", error.c_str());
      return 2;
    }
  }
  if (args.zscores_file) {
    Input zscores;
    std::string error = zscores.open(*args.zscores_file);
    std::string text;
    if (error.empty())
      error = zscores.read([&](std::string_view chunk, std::uint64_t) { text += chunk; });
    if (!error.empty()) {
      std::fprintf(stderr, "ndcg-calc: %s\n", error.c_str());
      return 2;
    }
    args.options.push_back({"zscores", std::move(text)});
  }

  ndcg::trec::EvalOptions options;
  const ndcg::DiagnosticList option_errors =
      ndcg::trec::configure_evaluation(options, args.measures, args.options);
  ndcg::trec::Evaluation evaluation;
  if (!option_errors.empty()) {
    evaluation.errors = option_errors.finish();
  } else {
    Progress progress(args.progress);
    // A large run may be split between two threads (split_points, evaluate_split), which share
    // the qrels. When its parts cannot be joined, the run is read again here, whole, and so are
    // the qrels (Input reads a file again; what can be read once, it copies as it passes).
    // Holding the qrels' text for that instead cost a tenth of the program's page faults.
    const std::optional<std::vector<std::uint64_t>> pieces =
        split_points(run_file, args.files[1], options);
    ndcg::trec::Session session(options);
    std::string error;
    const char* failed = nullptr;
    std::optional<ndcg::trec::Evaluation> split;
    const auto read_qrels = [&](ndcg::trec::Session& into) {
      return qrels.read([&](std::string_view chunk, std::uint64_t bytes) {
        into.feed_qrels(chunk);
        progress.update("qrels", bytes, qrels.size());
      });
    };
    if (pieces) {
      // The qrels are read by the first of the two threads while the other starts on the run.
      split = evaluate_split(read_qrels, args.files[1], *pieces, options, progress, error, failed);
    }
    if (!failed && !split) {
      error = read_qrels(session);
      if (!error.empty()) failed = "qrels";
    }
    if (!failed && !split) {
      session.finish_qrels();
      do {
        error = run_file.read([&](std::string_view chunk, std::uint64_t bytes) {
          session.feed_run(chunk);
          progress.update("run", bytes, run_file.size());
        });
        if (!error.empty()) {
          failed = "run";
          break;
        }
      } while (session.finish_run());
    }
    progress.done();
    if (failed) {
      std::fprintf(stderr, "ndcg-calc: %s: the %s file could not be read: %s\n",
                   args.files[failed[0] == 'q' ? 0 : 1].c_str(), failed, error.c_str());
      return 1;
    }
    evaluation = split ? std::move(*split) : session.result();
  }
  return print(ndcg::cli::report(args, evaluation, args.files[0], args.files[1], true));
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);
  return run(std::vector<std::string>(argv + 1, argv + argc));
}
