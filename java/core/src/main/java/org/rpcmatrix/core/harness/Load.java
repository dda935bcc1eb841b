package org.rpcmatrix.core.harness;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;
import org.rpcmatrix.core.conformance.VectorRunner;
import org.rpcmatrix.core.contract.Json;

/**
 * The {@code load} command (runner/PROTOCOL.md#load): many calls in flight, closed or open loop.
 *
 * <p>Closed loop: {@code in_flight} workers each make one call after another; a call's latency is its service
 * time. Open loop: calls are due at intended times (constant spacing, or Poisson arrivals at {@code rate} per
 * second from a seeded generator), one schedule for all workers: a free worker takes the next due time (an idle
 * worker helps a stuck one), waits until it and sends the call. Latency runs from the intended time (coordinated
 * omission corrected, as wrk2 does), service time from the actual send, their difference is the dispatch delay.
 * A call sent more than {@code late_ms} after its intended time is late; one answered more than {@code timeout_ms}
 * after it is a time-out (still recorded); a time still unhanded when the window ends is dropped, not sent late.
 * A call still outstanding {@code timeout_ms} after the window is hung: the command answers without it.
 *
 * <p>Workers are platform threads; each keeps its own counts and HdrHistograms (1 ns to 60 s, 3 significant
 * digits), merged after the run. The constant schedule is an atomic counter of handed-out slots, each slot's
 * time computed from its index; the Poisson schedule draws its seeded gaps in order under a small lock.
 */
final class Load {
    static final long LOWEST_NS = 1;
    static final long HIGHEST_NS = 60_000_000_000L;
    static final int DIGITS = 3;
    /** Every thread is started before the first intended send. */
    private static final long START_DELAY_NS = 1_000_000;
    private static final int MAX_ERROR_CHARS = 300;
    /** Heap of one worker's three histograms (each about 217 KiB at this range and precision). */
    private static final long WORKER_HISTOGRAM_BYTES = 3 * histogram().getEstimatedFootprintInBytes();
    static final String HISTOGRAM_LIBRARY = "HdrHistogram " + libraryVersion();

    private Load() {
    }

    /** One call on a worker's connection; an exception is a failed call, counted and not timed. */
    @FunctionalInterface
    interface Call {
        void call() throws Exception;
    }

    static Histogram histogram() {
        return new Histogram(LOWEST_NS, HIGHEST_NS, DIGITS);
    }

    /**
     * Refuses more workers than half the heap holds histograms for (the JVM of the manifest has 256 MiB: some
     * 190 workers), before any connection is opened.
     */
    static void checkHeap(LoadPlan plan) {
        long needed = (plan.inFlight() + 1L) * WORKER_HISTOGRAM_BYTES;
        long heap = Runtime.getRuntime().maxMemory();
        if (needed > heap / 2) {
            throw new IllegalArgumentException("load: \"in_flight\" " + plan.inFlight() + " needs "
                    + (needed >> 20) + " MiB of histograms (" + (WORKER_HISTOGRAM_BYTES >> 10)
                    + " KiB a worker), more than half of this JVM's heap of " + (heap >> 20) + " MiB");
        }
    }

    /** Runs the load; {@code callOf.apply(worker)} gives worker {@code worker}'s call (on its connection). */
    static ObjectNode run(LoadPlan plan, IntFunction<Call> callOf) throws InterruptedException {
        checkHeap(plan);
        Call[] calls = new Call[plan.inFlight()];
        Tally[] tallies = new Tally[calls.length];
        for (int w = 0; w < calls.length; w++) {
            calls[w] = callOf.apply(w);
            tallies[w] = new Tally();
        }
        Window window = new Window();
        Thread[] threads = new Thread[calls.length];
        for (int w = 0; w < calls.length; w++) {
            Worker worker = new Worker(window, calls[w], tallies[w]);
            threads[w] = new Thread(worker, "load-" + w);
            threads[w].setDaemon(true);
        }
        long cpuBefore = processCpuNanos();
        long recordFrom;
        long finished;
        int hung = 0;
        try {
            for (Thread thread : threads) {
                thread.start();
            }
            long start = System.nanoTime() + START_DELAY_NS;
            recordFrom = start + plan.warmupNs();
            window.open(plan, recordFrom, plan.open() ? Schedule.of(plan, start) : null);
            // A call that never returns holds its worker: waited for up to the time-out past the end, then counted.
            long deadline = window.end + plan.timeoutNs();
            for (Thread thread : threads) {
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.timedJoin(thread, left);
                }
            }
        } finally {
            // Abandoned: a worker whose call returns later records nothing more (its tally is closed below).
            for (Thread thread : threads) {
                if (thread.isAlive()) {
                    hung++;
                    thread.interrupt();
                }
            }
            window.go.countDown();
        }
        finished = System.nanoTime();
        long cpu = processCpuNanos() - cpuBefore;

        Tally total = new Tally();
        for (Tally tally : tallies) {
            synchronized (tally) {
                tally.closed = true;
                total.add(tally);
            }
        }
        double windowSeconds = plan.durationNs() / 1e9;
        ObjectNode answer = Json.MAPPER.createObjectNode()
                .put("mode", plan.open() ? "open" : "closed")
                .put("connections", plan.connections())
                .put("in_flight", plan.inFlight())
                .put("duration_ms", plan.durationNs() / 1e6)
                .put("elapsed_ms", round3((finished - recordFrom) / 1e6))
                .put("calls", total.calls)
                .put("errors", total.errors)
                .put("timeouts", total.timeouts + hung)
                .put("hung", hung)
                .put("late", total.late)
                .put("dropped", window.schedule == null ? 0 : window.schedule.dropped(recordFrom, window.end))
                .put("achieved_per_s", round3((total.calls - total.errors) / windowSeconds))
                .put("client_cpu_ns", cpu)
                .put("latency", encode(total.latency))
                .put("service", encode(total.service))
                .put("dispatch", encode(total.dispatch));
        answer.putObject("generator")
                .put("name", Load.class.getName())
                .put("version", Runtime.version().toString())
                .put("threads", plan.inFlight())
                .put("histogram", HISTOGRAM_LIBRARY)
                .put("clock", "System.nanoTime");
        if (plan.open()) {
            if (plan.rate() == Math.rint(plan.rate())) {
                answer.put("offered_per_s", (long) plan.rate());
            } else {
                answer.put("offered_per_s", plan.rate());
            }
            answer.put("arrival", plan.arrival()).put("seed", plan.seed());
        }
        if (total.firstError != null) {
            String error = total.firstError;
            answer.put("first_error", error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS));
        }
        return answer;
    }

    /** The V2 compressed encoding (the one every HdrHistogram port decodes), in base64. */
    static String encode(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    /**
     * The CPU time of the whole process, every thread (the JVM's own, the stack's I/O threads): the operating
     * system's figure, in clock ticks (10 ms on Linux) turned into nanoseconds.
     */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private static double round3(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    /** The version of the HdrHistogram jar on the class path, from the Maven descriptor it carries. */
    private static String libraryVersion() {
        try (InputStream in = Histogram.class.getResourceAsStream(
                "/META-INF/maven/org.hdrhistogram/HdrHistogram/pom.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                return properties.getProperty("version", "(version unknown)");
            }
        } catch (IOException e) {
            // the version is only reported
        }
        String version = Histogram.class.getPackage().getImplementationVersion();
        return version != null ? version : "(version unknown)";
    }

    /** The window's times, set once every worker is started; {@link #go} publishes them to the workers. */
    private static final class Window {
        final CountDownLatch go = new CountDownLatch(1);
        long recordFrom;
        long end;
        long lateNs;
        long timeoutNs;
        Schedule schedule;

        void open(LoadPlan plan, long recordFrom, Schedule schedule) {
            this.recordFrom = recordFrom;
            this.end = recordFrom + plan.durationNs();
            this.lateNs = plan.lateNs();
            this.timeoutNs = plan.timeoutNs();
            this.schedule = schedule;
            go.countDown();
        }
    }

    /**
     * One worker's counts and histograms. Only its worker writes them, holding the tally's own monitor (never
     * contended while the load runs); the merge closes it, so that an abandoned worker whose call returns late
     * records nothing into histograms already read.
     */
    private static final class Tally {
        final Histogram latency = histogram();
        final Histogram service = histogram();
        final Histogram dispatch = histogram();
        long calls;
        long errors;
        long timeouts;
        long late;
        String firstError;
        boolean closed;

        void add(Tally other) {
            latency.add(other.latency);
            service.add(other.service);
            dispatch.add(other.dispatch);
            calls += other.calls;
            errors += other.errors;
            timeouts += other.timeouts;
            late += other.late;
            if (firstError == null) {
                firstError = other.firstError;
            }
        }
    }

    private static final class Worker implements Runnable {
        private final Window window;
        private final Call call;
        private final Tally tally;

        Worker(Window window, Call call, Tally tally) {
            this.window = window;
            this.call = call;
            this.tally = tally;
        }

        @Override
        public void run() {
            try {
                window.go.await();
            } catch (InterruptedException e) {
                return;
            }
            Schedule schedule = window.schedule;
            long recordFrom = window.recordFrom;
            long end = window.end;
            while (true) {
                long intended;
                long sent;
                if (schedule != null) {
                    if (System.nanoTime() >= end) {
                        return; // what is still due is dropped, not sent late after the window
                    }
                    intended = schedule.take();
                    if (intended >= end || !waitUntil(intended)) {
                        return;
                    }
                    sent = System.nanoTime();
                } else {
                    intended = System.nanoTime();
                    if (intended >= end) {
                        return;
                    }
                    sent = intended;
                }
                String failed = null;
                try {
                    call.call();
                } catch (Exception | Error e) { // counted; the worker goes on
                    failed = VectorRunner.describe(e);
                }
                long done = System.nanoTime();
                if (intended < recordFrom) {
                    continue;
                }
                synchronized (tally) {
                    if (tally.closed) {
                        return;
                    }
                    record(intended, sent, done, failed);
                }
            }
        }

        private void record(long intended, long sent, long done, String failed) {
            tally.calls++;
            if (failed != null) {
                tally.errors++;
                if (tally.firstError == null) {
                    tally.firstError = failed;
                }
                return;
            }
            if (done - intended > window.timeoutNs) {
                tally.timeouts++;
            }
            if (sent - intended > window.lateNs) {
                tally.late++;
            }
            tally.latency.recordValue(clamp(done - intended));
            tally.service.recordValue(clamp(done - sent));
            tally.dispatch.recordValue(clamp(sent - intended));
        }

        /** Parks until {@code intended}; false when interrupted (the command gave the worker up). */
        private static boolean waitUntil(long intended) {
            long left;
            while ((left = intended - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
                if (Thread.currentThread().isInterrupted()) {
                    return false;
                }
            }
            return true;
        }

        private static long clamp(long nanos) {
            return Math.min(Math.max(nanos, LOWEST_NS), HIGHEST_NS);
        }
    }

    /** The intended send times of an open loop, handed out in order to whichever worker asks first. */
    private abstract static class Schedule {
        /** The next intended time; each is handed out once. */
        abstract long take();

        /** Intended times in [{@code from}, {@code end}) never handed out: the dropped calls. Once, after the run. */
        abstract long dropped(long from, long end);

        static Schedule of(LoadPlan plan, long start) {
            double intervalNs = 1e9 / plan.rate();
            return LoadPlan.POISSON.equals(plan.arrival()) ? new Poisson(start, intervalNs, plan.seed())
                    : new Constant(start, intervalNs);
        }
    }

    /** Evenly spaced: slot k is due at start + k × interval; a worker takes a slot with one atomic increment. */
    private static final class Constant extends Schedule {
        private final long start;
        private final double intervalNs;
        private final AtomicLong handed = new AtomicLong();

        Constant(long start, double intervalNs) {
            this.start = start;
            this.intervalNs = intervalNs;
        }

        private long at(long slot) {
            return start + (long) (slot * intervalNs);
        }

        @Override
        long take() {
            return at(handed.getAndIncrement());
        }

        /** The first slot due at or after {@code time}. */
        private long firstAtOrAfter(long time) {
            long slot = Math.max(0, (long) Math.ceil((time - start) / intervalNs));
            while (slot > 0 && at(slot - 1) >= time) {
                slot--;
            }
            while (at(slot) < time) {
                slot++;
            }
            return slot;
        }

        @Override
        long dropped(long from, long end) {
            long first = Math.max(handed.get(), firstAtOrAfter(from));
            return Math.max(0, firstAtOrAfter(end) - first);
        }
    }

    /** Poisson arrivals: exponential gaps from the seeded generator, drawn in order under the schedule's lock. */
    private static final class Poisson extends Schedule {
        private final double intervalNs;
        private final SplittableRandom random;
        private double next;

        Poisson(long start, double intervalNs, long seed) {
            this.intervalNs = intervalNs;
            this.random = new SplittableRandom(seed);
            this.next = start;
        }

        @Override
        synchronized long take() {
            long due = (long) next;
            next += -Math.log(1 - random.nextDouble()) * intervalNs;
            return due;
        }

        @Override
        synchronized long dropped(long from, long end) {
            long count = 0;
            long due;
            while ((due = take()) < end) {
                if (due >= from) {
                    count++;
                }
            }
            return count;
        }
    }
}
