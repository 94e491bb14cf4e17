#include "AppIdentity.h"

#include "settings/AppSettings.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace wl {

void setApplicationIdentity(QCoreApplication &app)
{
    QCoreApplication::setOrganizationName(u"Waterline"_s);
    QCoreApplication::setOrganizationDomain(u"waterline.dev"_s);
    QCoreApplication::setApplicationName(u"waterline"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(WATERLINE_VERSION));
    if (qobject_cast<QGuiApplication *>(&app)) {
        QGuiApplication::setDesktopFileName(QString::fromLatin1(kDesktopId));
        // The installed hicolor icon; the window manager may also find it through the desktop file.
        QGuiApplication::setWindowIcon(QIcon::fromTheme(QString::fromLatin1(kDesktopId)));
    }
}

QString languageSetting()
{
    return AppSettings().language();
}

QStringList installTranslations(QCoreApplication &app, const QString &language)
{
    const bool followSystem = language.isEmpty() || language == u"system";
    const QLocale locale = followSystem ? QLocale::system() : QLocale(language);
    if (!followSystem)
        QLocale::setDefault(locale);   // numbers and dates follow the chosen language too

    QStringList loaded;
    auto install = [&](QTranslator *translator, const QString &name, const QString &folder) {
        translator->setParent(&app);
        if (translator->load(locale, name, u"_"_s, folder) && QCoreApplication::installTranslator(translator)) {
            if (!loaded.contains(translator->filePath()))
                loaded.append(translator->filePath());
            return;
        }
        delete translator;
    };
    // The last installed is asked first: Waterline's catalogue, then Qt's own.
    // A string is found only under the context lupdate recorded for it: the sources call
    // tr() in their class or QCoreApplication::translate() with a literal context.
    install(new QTranslator, u"qtbase"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    const qsizetype before = loaded.size();
    install(new QTranslator, u"waterline"_s, u":/i18n"_s);
    if (loaded.size() == before) {
        // No catalogue for this language (the C locale among them): the sources' English, with
        // English plural forms ("343 messages" for "%n message(s)").
        auto *english = new QTranslator(&app);
        if (english->load(u":/i18n/waterline_en.qm"_s) && QCoreApplication::installTranslator(english))
            loaded.append(english->filePath());
        else
            delete english;
    }
    return loaded;
}

} // namespace wl
