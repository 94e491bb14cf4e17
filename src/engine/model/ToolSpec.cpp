#include "ToolSpec.h"

#include <QJsonDocument>

namespace wl {

qint64 ToolSpec::byteCount() const
{
    return name.toUtf8().size() + description.toUtf8().size()
        + QJsonDocument(inputSchema).toJson(QJsonDocument::Compact).size();
}

} // namespace wl
