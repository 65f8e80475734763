import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { address, getBase58Decoder, getBase64Encoder, getTransactionDecoder, signature as toSignature, type Address } from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';

export interface LocalSvm {
  url: string;
  svm: LiteSVM;
  /** Every method the SDK or the test called, in order. */
  calls: string[];
  close(): Promise<void>;
}

type RpcRequest = { jsonrpc: '2.0'; id: number | string; method: string; params?: unknown[] };

/**
 * A real Solana runtime (litesvm: the SVM with signature verification and the system program)
 * behind a small JSON-RPC server on 127.0.0.1 speaking the methods the SDK and the tests use:
 * sendTransaction (base64), getLatestBlockhash, getBalance, getSignatureStatuses.
 */
export async function startLocalSvm(): Promise<LocalSvm> {
  const svm = new LiteSVM();
  const calls: string[] = [];
  const slot = 1;

  const handle = (req: RpcRequest): unknown => {
    const params = req.params ?? [];
    switch (req.method) {
      case 'getLatestBlockhash':
        return { context: { slot }, value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1000 } };
      case 'getBalance':
        return { context: { slot }, value: Number(svm.getBalance(address(String(params[0]))) ?? 0n) };
      case 'getSignatureStatuses':
        return {
          context: { slot },
          value: (params[0] as string[]).map((sig) => {
            const meta = svm.getTransaction(toSignature(sig));
            if (!meta) return null;
            const err = meta instanceof FailedTransactionMetadata ? String(meta.err()) : null;
            return { slot, confirmations: null, err, confirmationStatus: 'finalized' };
          }),
        };
      case 'sendTransaction': {
        const [wire, config] = params as [string, { encoding?: string } | undefined];
        if (config?.encoding !== 'base64') throw rpcError(-32602, 'only base64 encoding is served here');
        const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
        const result = svm.sendTransaction(tx);
        if (result instanceof FailedTransactionMetadata) {
          throw rpcError(-32002, `Transaction simulation failed: ${String(result.err())}`, { logs: result.meta().logs() });
        }
        return getBase58Decoder().decode(result.signature());
      }
      default:
        throw rpcError(-32601, `Method not found: ${req.method}`);
    }
  };

  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const req = JSON.parse(body) as RpcRequest;
      calls.push(req.method);
      let payload: object;
      try {
        payload = { jsonrpc: '2.0', id: req.id, result: handle(req) };
      } catch (err) {
        const e = err as { rpc?: object; message: string };
        payload = { jsonrpc: '2.0', id: req.id, error: e.rpc ?? { code: -32603, message: e.message } };
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    svm,
    calls,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

function rpcError(code: number, message: string, data?: unknown): Error & { rpc: object } {
  return Object.assign(new Error(message), { rpc: { code, message, data } });
}

export type { Address };
