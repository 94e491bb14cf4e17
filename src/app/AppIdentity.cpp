#include "AppIdentity.h"

#include <QByteArrayList>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

using namespace Qt::StringLiterals;

namespace wl {

QByteArrayList translationContexts();   // generated from the .ts files by cmake/Translations.cmake

namespace {

// Sources that translate through a local helper (`tr(text)` calling
// QCoreApplication::translate("Context", text)) use a context other than the one
// lupdate records for the call. This translator, installed before the exact one
// and so asked after it, finds such a string under any context of the catalogue.
class AnyContextTranslator : public QTranslator
{
public:
    using QTranslator::QTranslator;

    QString translate(const char *context, const char *sourceText, const char *disambiguation, int n) const override
    {
        Q_UNUSED(context)
        for (const QByteArray &candidate : m_contexts) {
            QString text = QTranslator::translate(candidate.constData(), sourceText, disambiguation, n);
            if (!text.isEmpty())
                return text;
        }
        return {};
    }

private:
    const QByteArrayList m_contexts = translationContexts();
};

} // namespace

void setApplicationIdentity(QCoreApplication &app)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Waterline"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("waterline.dev"));
    QCoreApplication::setApplicationName(QStringLiteral("waterline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WATERLINE_VERSION));
    if (qobject_cast<QGuiApplication *>(&app)) {
        QGuiApplication::setDesktopFileName(QString::fromLatin1(kDesktopId));
        // The installed hicolor icon; the window manager may also find it through the desktop file.
        QGuiApplication::setWindowIcon(QIcon::fromTheme(QString::fromLatin1(kDesktopId)));
    }
}

QString languageSetting()
{
    // Must match AppSettings::keyName(AppSettings::Key::Language); tst_translations checks that it does.
    return QSettings().value(u"appearance/language"_s).toString();
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
    // The last installed is asked first: exact context, then any context, then Qt's own.
    install(new QTranslator, u"qtbase"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    install(new AnyContextTranslator, u"waterline"_s, u":/i18n"_s);
    install(new QTranslator, u"waterline"_s, u":/i18n"_s);
    return loaded;
}

} // namespace wl
