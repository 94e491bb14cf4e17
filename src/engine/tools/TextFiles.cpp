#include "tools/TextFiles.h"

#include "tools/RootDirectory.h"
#include "tools/Utf8Text.h"

#include <QFile>

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

Loaded load(const RootDirectory &root, const QString &relativePath)
{
    Loaded loaded;
    RootDirectory::Opened opened = root.open(relativePath, relativePath);
    if (!opened.ok()) {
        loaded.exists = true;
        loaded.error = opened.error;
        return loaded;
    }
    if (opened.kind == RootDirectory::Kind::Missing) {
        loaded.ok = true;
        return loaded;
    }
    loaded.exists = true;
    if (opened.kind == RootDirectory::Kind::Folder) {
        loaded.error = u"'%1' is a folder, not a file"_s.arg(relativePath);
        return loaded;
    }
    loaded.hardLinks = opened.hardLinks;
    if (opened.size > maxEditableBytes) {
        loaded.error = u"'%1' is too large to edit (%2 bytes; the limit is %3)"_s
                           .arg(relativePath)
                           .arg(opened.size)
                           .arg(maxEditableBytes);
        return loaded;
    }
    QFile file;
    if (!file.open(opened.fd.get(), QIODevice::ReadOnly, QFileDevice::DontCloseHandle)) {
        loaded.error = u"cannot read '%1': %2"_s.arg(relativePath, file.errorString());
        return loaded;
    }
    const QByteArray bytes = file.read(maxEditableBytes + 1);
    if (Utf8Text::looksBinary(bytes, false)) {
        loaded.error = u"'%1' is a binary or non-UTF-8 file; only UTF-8 text files can be edited"_s.arg(relativePath);
        return loaded;
    }
    loaded.byteOrderMark = bytes.startsWith(utf8Bom);
    loaded.text = QString::fromUtf8(loaded.byteOrderMark ? bytes.sliced(utf8Bom.size()) : bytes);
    loaded.ok = true;
    return loaded;
}

Saved save(const RootDirectory &root, const QString &relativePath, const QByteArray &bytes)
{
    const RootDirectory::Written written = root.write(relativePath, relativePath, bytes);
    return Saved{written.error, written.created};
}

} // namespace wl::TextFiles
