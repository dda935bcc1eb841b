/**
 * The command line every jar shares and the process around a protocol module (runner/PROTOCOL.md): {@link
 * org.rpcmatrix.core.harness.Launcher}, the server's ready line and SIGTERM ({@link
 * org.rpcmatrix.core.harness.ServerMain}), and the client's command loop ({@link
 * org.rpcmatrix.core.harness.ClientMain}, {@link org.rpcmatrix.core.harness.ClientSession}: connect, vectors,
 * prepare, warmup, measure, samples, handler, metadata, load, quit) with its timed loops and its load
 * generator ({@link org.rpcmatrix.core.harness.Load}).
 */
package org.rpcmatrix.core.harness;
