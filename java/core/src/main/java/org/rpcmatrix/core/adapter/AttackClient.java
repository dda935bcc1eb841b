package org.rpcmatrix.core.adapter;

import org.rpcmatrix.core.contract.Operation;

/** A client adapter that can make a call with a deliberate defect (CONTRACT.md#vectors, attacks). */
public interface AttackClient {
    /** Makes the vector's call with the defect `attack`; returns how the server refused it (e.g. the SOAP
     *  Fault's code and text), or null when the server answered normally. Throws for a failure of the client. */
    String attack(String attack, Operation op, Object[] args) throws Exception;
    /** A correct ping() on a new connection, after an attack; throws when the server no longer serves. */
    void pingAfterAttack() throws Exception;
}
