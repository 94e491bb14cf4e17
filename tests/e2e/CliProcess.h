#pragma once
// `waterline-cli` run as a separate process with its own data and config folders below `home`,
// for the end-to-end tests that compare its output with the engine's.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace wl::test {

struct CliProcess
{
    int exitCode = -1;   // -1: it did not finish normally within two minutes
    QByteArray out;
    QByteArray err;
};

inline CliProcess runWaterlineCli(const QStringList &arguments, const QString &home)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli"), arguments);
    CliProcess run;
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit)
        return run;
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

} // namespace wl::test
