import SyncrunCLI

// The stock `syncrun` executable: the command tree lives in the SyncrunCLI library.
await Syncrun.main()
