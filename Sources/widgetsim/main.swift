import WidgetSimCLI

// The front end does everything; a package with providers of its own makes
// the same call with them (README, "Your providers in your own package").
WidgetSimCommandLine.main()
