#include "EventFolder.h"

#include <QDir>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// The first run of ASCII digits in `name`, saturated so that hostile names cannot overflow;
// -1 when there is none.
qint64 firstNumber(QStringView name)
{
    qsizetype i = 0;
    while (i < name.size() && !(name[i] >= u'0' && name[i] <= u'9'))
        ++i;
    if (i == name.size())
        return -1;
    constexpr qint64 ceiling = qint64(1) << 60;
    qint64 value = 0;
    for (; i < name.size() && name[i] >= u'0' && name[i] <= u'9'; ++i)
        value = value >= ceiling / 10 ? ceiling : value * 10 + (name[i].unicode() - u'0');
    return value;
}

} // namespace

QString EventFolder::eventsDir(const QString &path)
{
    const QDir dir(path);
    return dir.exists(u"events"_s) && QFileInfo(dir.filePath(u"events"_s)).isDir() ? dir.filePath(u"events"_s) : dir.path();
}

QFileInfoList EventFolder::files(const QString &path)
{
    const QDir dir(eventsDir(path));
    QFileInfoList files = dir.entryInfoList({u"*.json"_s}, QDir::Files | QDir::Readable, QDir::NoSort);
    struct Keyed
    {
        qint64 number;
        QFileInfo info;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(size_t(files.size()));
    for (const QFileInfo &info : std::as_const(files)) {
        if (info.isFile()) // a link to a device or a pipe is not
            keyed.push_back({firstNumber(info.fileName()), info});
    }
    std::sort(keyed.begin(), keyed.end(), [](const Keyed &a, const Keyed &b) {
        return a.number != b.number ? a.number < b.number : a.info.fileName() < b.info.fileName();
    });
    files.clear();
    for (Keyed &k : keyed)
        files.append(std::move(k.info));
    return files;
}

} // namespace wl
