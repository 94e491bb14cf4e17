#include "tools/TextFiles.h"

#include "tools/Utf8Text.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace wl::TextFiles {

namespace {
constexpr QByteArrayView utf8Bom("\xEF\xBB\xBF");
} // namespace

QByteArray Loaded::encode(const QString &newText) const
{
    QByteArray bytes = byteOrderMark ? utf8Bom.toByteArray() : QByteArray();
    bytes.append(newText.toUtf8());
    return bytes;
}

Loaded load(const QString &absolutePath, const QString &displayPath)
{
    Loaded loaded;
    const QFileInfo info(absolutePath);
    if (!info.exists()) {
        loaded.ok = true;
        return loaded;
    }
    loaded.exists = true;
    if (info.isDir()) {
        loaded.error = u"'%1' is a folder, not a file"_s.arg(displayPath);
        return loaded;
    }
    if (info.size() > maxEditableBytes) {
        loaded.error = u"'%1' is too large to edit (%2 bytes; the limit is %3)"_s
                           .arg(displayPath)
                           .arg(info.size())
                           .arg(maxEditableBytes);
        return loaded;
    }
    QFile file(absolutePath);
    if (!file.open(QIODevice::ReadOnly)) {
        loaded.error = u"cannot read '%1': %2"_s.arg(displayPath, file.errorString());
        return loaded;
    }
    const QByteArray bytes = file.readAll();
    if (Utf8Text::looksBinary(bytes, false)) {
        loaded.error = u"'%1' is a binary or non-UTF-8 file; only UTF-8 text files can be edited"_s.arg(displayPath);
        return loaded;
    }
    loaded.byteOrderMark = bytes.startsWith(utf8Bom);
    loaded.text = QString::fromUtf8(loaded.byteOrderMark ? bytes.sliced(utf8Bom.size()) : bytes);
    loaded.ok = true;
    return loaded;
}

QString save(const QString &absolutePath, const QString &displayPath, const QByteArray &bytes)
{
    const QFileInfo info(absolutePath);
    if (info.isDir())
        return u"'%1' is a folder, not a file"_s.arg(displayPath);
    if (!QDir().mkpath(info.absolutePath()))
        return u"cannot create the folder for '%1'"_s.arg(displayPath);
    QSaveFile file(absolutePath);
    if (!file.open(QIODevice::WriteOnly))
        return u"cannot write '%1': %2"_s.arg(displayPath, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString reason = file.errorString();
        file.cancelWriting();
        return u"cannot write '%1': %2"_s.arg(displayPath, reason);
    }
    if (!file.commit())
        return u"cannot write '%1': %2"_s.arg(displayPath, file.errorString());
    return {};
}

} // namespace wl::TextFiles
