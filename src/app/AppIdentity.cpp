#include "AppIdentity.h"

#include <QCoreApplication>
#include <QGuiApplication>

namespace wl {

void setApplicationIdentity(QCoreApplication &app)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Waterline"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("waterline.dev"));
    QCoreApplication::setApplicationName(QStringLiteral("waterline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WATERLINE_VERSION));
    if (qobject_cast<QGuiApplication *>(&app))
        QGuiApplication::setDesktopFileName(QString::fromLatin1(kDesktopId));
}

} // namespace wl
