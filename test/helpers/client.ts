import type { Server } from 'node:http';
import request from 'supertest';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Supertest with a bearer token (or none), for one caller. */
export class Client {
  constructor(
    private readonly server: Server,
    readonly token?: string,
  ) {}

  get(path: string) {
    return this.send('get', path);
  }
  delete(path: string) {
    return this.send('delete', path);
  }
  post(path: string, body?: string | object) {
    return this.withBody('post', path, body);
  }
  put(path: string, body?: string | object) {
    return this.withBody('put', path, body);
  }
  patch(path: string, body?: string | object) {
    return this.withBody('patch', path, body);
  }

  private withBody(method: Method, path: string, body?: string | object) {
    const test = this.send(method, path);
    return body === undefined ? test : test.send(body);
  }

  private send(method: Method, path: string) {
    const test = request(this.server)[method](path);
    return this.token ? test.set('Authorization', `Bearer ${this.token}`) : test;
  }
}
