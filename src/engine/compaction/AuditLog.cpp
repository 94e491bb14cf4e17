#include "AuditLog.h"

#include "LoggingCategories.h"
#include "PrivateFiles.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl::AuditLog {

namespace {

constexpr QFile::Permissions kFilePermissions = QFile::ReadOwner | QFile::WriteOwner;

} // namespace

bool append(const QString &path, const CompactionRecord &record, QString *error)
{
    auto failed = [&](const QString &why) {
        qCWarning(lcCompaction) << "audit append failed:" << why;
        if (error)
            *error = why;
        return false;
    };
    if (path.isEmpty())
        return failed(QCoreApplication::translate("wl::AuditLog", "no audit file path given"));

    QString dirError;
    if (!PrivateFiles::ensureFolder(QFileInfo(path).path(), &dirError))
        return failed(dirError);

    QFile file(path);
    // The permissions apply when the file is created (exactly: the umask only removes bits);
    // a log left readable by an older version is made private too.
    if (!file.open(QIODevice::ReadWrite | QIODevice::Append, kFilePermissions))
        return failed(QCoreApplication::translate("wl::AuditLog", "cannot open %1: %2").arg(path, file.errorString()));
    ::fchmod(file.handle(), S_IRUSR | S_IWUSR);

    // One write per record: with O_APPEND, concurrent writers cannot interleave inside a line.
    QByteArray line = QJsonDocument(record.toJson()).toJson(QJsonDocument::Compact) + '\n';
    // A record cut short (a full disk, a crash) must not swallow this one: end its line first.
    if (const qint64 size = file.size(); size > 0) {
        char last = '\n';
        if (::pread(file.handle(), &last, 1, off_t(size - 1)) == 1 && last != '\n')
            line.prepend('\n');
    }
    if (file.write(line) != line.size() || !file.flush())
        return failed(QCoreApplication::translate("wl::AuditLog", "cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

ReadResult read(const QString &path)
{
    ReadResult result;
    QFile file(path);
    if (!file.exists())
        return result;
    if (!file.open(QIODevice::ReadOnly)) {
        result.problems << QCoreApplication::translate("wl::AuditLog", "cannot open %1: %2").arg(path, file.errorString());
        qCWarning(lcCompaction) << "audit read:" << result.problems.constLast();
        return result;
    }

    int lineNumber = 0;
    while (!file.atEnd()) {
        const QByteArray line = file.readLine().trimmed();
        ++lineNumber;
        if (line.isEmpty())
            continue;

        auto skip = [&](const QString &why) {
            ++result.skipped;
            result.problems << QCoreApplication::translate("wl::AuditLog", "line %1: %2").arg(lineNumber).arg(why);
        };
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(line, &parseError);
        if (parseError.error != QJsonParseError::NoError) {
            skip(QCoreApplication::translate("wl::AuditLog", "not JSON (%1 at offset %2)").arg(parseError.errorString()).arg(parseError.offset));
            continue;
        }
        if (!document.isObject()) {
            skip(QCoreApplication::translate("wl::AuditLog", "not a JSON object"));
            continue;
        }
        CompactionRecord record;
        QString why;
        if (!CompactionRecord::fromJson(document.object(), &record, &why)) {
            skip(why);
            continue;
        }
        result.records.append(std::move(record));
    }
    if (!result.problems.isEmpty())
        qCWarning(lcCompaction) << "audit read:" << path << "skipped" << result.skipped << "damaged lines";
    return result;
}

} // namespace wl::AuditLog
