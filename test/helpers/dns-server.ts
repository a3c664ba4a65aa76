import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A DNS server on 127.0.0.1 (UDP, a free port) answering CNAME and TXT questions from
 * records the test gives: what Bindery's custom hostname checks ask when DNS_SERVERS names it.
 * Any other name is NXDOMAIN; a name with records but none of the asked type answers no data.
 */
export class TestDnsServer {
  private readonly cnames = new Map<string, string>();
  private readonly txts = new Map<string, string[]>();
  /** Names whose questions go unanswered (the client times out): a broken server. */
  private readonly silent = new Set<string>();
  private server?: ReturnType<typeof dns2.createUDPServer>;
  port = 0;

  /** `host`'s CNAME record names `target`. */
  cname(host: string, target: string): this {
    this.cnames.set(host.toLowerCase(), target);
    return this;
  }

  /** `name` has this TXT record (besides any it had). */
  txt(name: string, value: string): this {
    this.txts.set(name.toLowerCase(), [...(this.txts.get(name.toLowerCase()) ?? []), value]);
    return this;
  }

  /** Questions about `name` get no answer. */
  mute(name: string): this {
    this.silent.add(name.toLowerCase());
    return this;
  }

  /** Forgets every record of `name` and `_bindery.<name>`. */
  clear(name: string): this {
    for (const key of [name.toLowerCase(), `_bindery.${name.toLowerCase()}`]) {
      this.cnames.delete(key);
      this.txts.delete(key);
      this.silent.delete(key);
    }
    return this;
  }

  /** `host:port` for DNS_SERVERS. */
  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.server = dns2.createUDPServer((request, send) => {
      const [question] = request.questions;
      const name = (question?.name ?? '').toLowerCase();
      if (this.silent.has(name)) return;
      const response = Packet.createResponseFromRequest(request);
      const cname = this.cnames.get(name);
      const txts = this.txts.get(name);
      if (question?.type === Packet.TYPE.CNAME && cname) {
        response.answers.push(
          Packet.createResourceFromQuestion(question, { ttl: 60, domain: cname }),
        );
      } else if (question?.type === Packet.TYPE.TXT && txts) {
        for (const data of txts) {
          response.answers.push(Packet.createResourceFromQuestion(question, { ttl: 60, data }));
        }
      } else if (!cname && !txts) {
        response.header.rcode = 3; // NXDOMAIN
      }
      send(response);
    });
    await this.server.listen(0, '127.0.0.1');
    this.port = this.server.address().port;
    // Never what keeps a test process alive.
    this.server.unref();
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
