package io.pcapdiag.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A run that SIGINT and SIGTERM end early rather than kill: the signal asks the run to stop, waits for it to end
 * ({@link #ended}) and exits with the code the run set. Without {@code halt()} the JVM would exit 130/143 once the hooks
 * return, and Main's System.exit() would block behind this shutdown.
 */
final class StopOnSignal {
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private volatile int code = ExitCodes.OK;

    /**
     * @param requestStop asks the run to stop
     * @param waitSeconds how long a signal waits for the run to end before the JVM's own exit
     * @param flush       what to flush before exiting
     */
    StopOnSignal(Runnable requestStop, int waitSeconds, Runnable flush) {
        hook = new Thread(() -> {
            requestStop.run();
            try {
                if (done.await(waitSeconds, TimeUnit.SECONDS)) {
                    flush.run();
                    Runtime.getRuntime().halt(code);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "pcapdiag-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The exit code the run has come to so far. */
    void code(int code) {
        this.code = code;
    }

    int code() {
        return code;
    }

    /** The run has ended, its output flushed: a signal now exits with {@link #code()}; without one, the hook goes. */
    void ended() {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // A signal started the shutdown: the hook is running and exits with the code.
        }
    }
}
