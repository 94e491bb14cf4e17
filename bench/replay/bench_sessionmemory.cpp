// Peak resident memory and time of `waterline-cli import [--replay]` and `simulate --db` (of the
// plain and of the replayed import) on
// generated Claude Code sessions of 2k, 10k and 70k exchanges (tests/support/GeneratedTranscript),
// each run as its own process and measured by the kernel (wait4's ru_maxrss), so what is reported
// is what a user's machine sees. Memory must grow with the session, not its square
// (docs/ARCHITECTURE.md, "Memory"): the 70k figure at most 1.1 times the line through the 2k and
// 10k ones, and under 1.5 GB.
//
//   WATERLINE_CLI=/path/to/waterline-cli    measure another build (e.g. main's, for "before")
//   WATERLINE_BENCH_LIMIT_MB=4000           address-space limit of each child (ulimit -v), so a
//                                           quadratic build fails instead of exhausting the machine
//   bench_sessionmemory --benchmark_filter=/10000 --benchmark_repetitions=3
#include "GeneratedTranscript.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QStringList>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

#include <cerrno>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace {

struct ChildRun
{
    bool ok = false;
    QString failure;      // why not, in words
    double peakMB = 0;    // ru_maxrss of the child
    double seconds = 0;
    QByteArray out;       // its stdout
};

QString cliPath()
{
    const QByteArray overridden = qgetenv("WATERLINE_CLI");
    return overridden.isEmpty() ? QStringLiteral(WATERLINE_CLI) : QString::fromLocal8Bit(overridden);
}

QTemporaryDir &workDir()
{
    static QTemporaryDir dir;
    return dir;
}

// Runs the CLI with `arguments` in private settings and data folders; waits and measures.
ChildRun runCli(const QStringList &arguments)
{
    ChildRun run;
    const QString home = workDir().filePath(u"home"_s);
    QDir().mkpath(home);
    std::vector<std::string> args{cliPath().toStdString()};
    for (const QString &a : arguments)
        args.push_back(a.toStdString());
    std::vector<char *> argv;
    for (std::string &a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const qint64 limitMB = qEnvironmentVariableIntValue("WATERLINE_BENCH_LIMIT_MB");
    const std::string homeValue = home.toStdString();

    int pipeFds[2];
    if (pipe(pipeFds) != 0) {
        run.failure = u"pipe failed"_s;
        return run;
    }
    QElapsedTimer timer;
    timer.start();
    const pid_t pid = fork();
    if (pid < 0) {
        run.failure = u"fork failed"_s;
        return run;
    }
    if (pid == 0) {
        dup2(pipeFds[1], STDOUT_FILENO);
        close(pipeFds[0]);
        close(pipeFds[1]);
        setenv("HOME", homeValue.c_str(), 1);
        setenv("XDG_CONFIG_HOME", (homeValue + "/config").c_str(), 1);
        setenv("XDG_DATA_HOME", (homeValue + "/data").c_str(), 1);
        setenv("XDG_CACHE_HOME", (homeValue + "/cache").c_str(), 1);
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
        if (limitMB > 0) {
            const rlimit limit{rlim_t(limitMB) << 20, rlim_t(limitMB) << 20};
            setrlimit(RLIMIT_AS, &limit);
        }
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(pipeFds[1]);
    char buffer[4096];
    for (ssize_t n; (n = read(pipeFds[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        run.out.append(buffer, n);
    }
    close(pipeFds[0]);
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    run.seconds = timer.nsecsElapsed() / 1e9;
    run.peakMB = usage.ru_maxrss / 1024.0; // kilobytes on Linux
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        run.ok = true;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        run.failure = u"cannot run %1"_s.arg(cliPath());
    } else if (WIFEXITED(status)) {
        run.failure = u"exit status %1 (over the %2 MB limit?)"_s.arg(WEXITSTATUS(status)).arg(limitMB);
    } else {
        run.failure = u"killed by signal %1"_s.arg(WTERMSIG(status));
    }
    return run;
}

// The generated transcript of `exchanges` calls, written once per process.
QString transcript(int exchanges)
{
    const QString path = workDir().filePath(u"claude-%1.jsonl"_s.arg(exchanges));
    if (!QFileInfo::exists(path) && wl::test::writeClaudeCodeTranscript(path, exchanges, 31) < 0)
        return {};
    return path;
}

void report(benchmark::State &state, const ChildRun &run, const QString &file)
{
    state.SetIterationTime(run.seconds);
    state.counters["peak_rss_MB"] = run.peakMB;
    state.counters["transcript_MB"] = QFileInfo(file).size() / 1048576.0;
    state.counters["exchanges"] = double(state.range(0));
}

// One import into a fresh database; the session id it printed, empty on failure.
QString importInto(benchmark::State &state, const QString &db, bool replay, ChildRun *run)
{
    const QString file = transcript(int(state.range(0)));
    if (file.isEmpty()) {
        state.SkipWithError("cannot write the generated transcript");
        return {};
    }
    QFile::remove(db);
    QStringList args{u"import"_s, u"--db"_s, db};
    if (replay)
        args << u"--replay"_s << u"--workspace"_s << workDir().path();
    *run = runCli(args << file);
    if (!run->ok) {
        state.SkipWithError(qPrintable(run->failure));
        return {};
    }
    return QString::fromUtf8(run->out).trimmed().split(u'\n').value(0);
}

// The database of each size and kind (plain import: every view is the whole history before its
// request; replayed: Waterline's compactions shortened them), imported once and kept for simulate.
QHash<std::pair<int, bool>, std::pair<QString, QString>> &importedDbs()
{
    static QHash<std::pair<int, bool>, std::pair<QString, QString>> dbs;
    return dbs;
}

QString dbPath(int exchanges, bool replay)
{
    return workDir().filePath((replay ? u"replayed-%1.db"_s : u"plain-%1.db"_s).arg(exchanges));
}

void importFile(benchmark::State &state, bool replay)
{
    for (auto _ : state) {
        ChildRun run;
        const int exchanges = int(state.range(0));
        const QString id = importInto(state, dbPath(exchanges, replay), replay, &run);
        if (id.isEmpty())
            return;
        importedDbs().insert({exchanges, replay}, {dbPath(exchanges, replay), id});
        const QString file = transcript(exchanges);
        report(state, run, file);
        state.counters["MB_per_s"] = QFileInfo(file).size() / 1048576.0 / run.seconds;
    }
}

void simulate(benchmark::State &state, bool replayed)
{
    const int exchanges = int(state.range(0));
    if (!importedDbs().contains({exchanges, replayed})) {
        ChildRun run;
        const QString id = importInto(state, dbPath(exchanges, replayed), replayed, &run);
        if (id.isEmpty())
            return;
        importedDbs().insert({exchanges, replayed}, {dbPath(exchanges, replayed), id});
    }
    const auto [db, id] = importedDbs().value({exchanges, replayed});
    for (auto _ : state) {
        const ChildRun run = runCli({u"simulate"_s, u"--db"_s, db, u"--input"_s, id, u"--json"_s});
        if (!run.ok) {
            state.SkipWithError(qPrintable(run.failure));
            return;
        }
        report(state, run, transcript(exchanges));
    }
}

void importPlain(benchmark::State &state) { importFile(state, false); }
void importReplay(benchmark::State &state) { importFile(state, true); }
void simulateDb(benchmark::State &state) { simulate(state, false); }
void simulateReplayedDb(benchmark::State &state) { simulate(state, true); }

} // namespace

BENCHMARK(importPlain)->Arg(2000)->Arg(10000)->Arg(70000)->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(importReplay)->Arg(2000)->Arg(10000)->Arg(70000)->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(simulateDb)->Arg(2000)->Arg(10000)->Arg(70000)->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);
BENCHMARK(simulateReplayedDb)->Arg(2000)->Arg(10000)->Arg(70000)->UseManualTime()->Iterations(1)->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
