#pragma once

class QCoreApplication;

namespace wl {

// Sets organisation, application name, version and desktop id; call first in main().
void setApplicationIdentity(QCoreApplication &app);

inline constexpr const char *kDesktopId = "dev.waterline.Waterline";

} // namespace wl
