// Shared by the SELib adapters (load.cs, export.cs): how an exception leaves
// the process. Ours, not SELib's.
//
// Mono reports an unhandled exception by exiting with status 1, the same
// status as a rejection, so certify could not tell the two apart. An
// exception SELib does not document as its way to refuse a file is a crash
// of the program using it: it is printed in Mono's own shape ("Unhandled
// Exception:", type, message, stack) and the process then dies by SIGABRT,
// as a native crash would. SIGABRT goes back to its default action first:
// Mono's handler would print a native crash report and leave a
// mono_crash.*.json file behind (that is what Environment.FailFast does).
using System;
using System.Runtime.InteropServices;

static class Crash
{
    [DllImport("libc", EntryPoint = "signal")] static extern IntPtr signal(int sig, IntPtr handler);
    [DllImport("libc", EntryPoint = "raise")] static extern int raise(int sig);
    const int SIGABRT = 6;

    public static int Die(Exception e)
    {
        Console.Out.Flush();
        Console.Error.WriteLine("Unhandled Exception:");
        Console.Error.WriteLine(e.ToString());
        Console.Error.Flush();
        signal(SIGABRT, IntPtr.Zero); // SIG_DFL
        raise(SIGABRT);
        return 134; // not reached
    }
}
