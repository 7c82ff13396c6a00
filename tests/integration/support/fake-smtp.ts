import net from "node:net";

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/**
 * A mail server speaking just enough SMTP for nodemailer (no TLS, no auth). `failNext(n)` makes the
 * next n connections get "421 Service not available", as a server that is down or overloaded does.
 */
export class FakeSmtp {
  readonly received: ReceivedMail[] = [];
  connections = 0;
  private failing = 0;
  private server = net.createServer((socket) => this.session(socket));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as net.AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  failNext(n: number) {
    this.failing = n;
  }

  private session(socket: net.Socket) {
    this.connections++;
    if (this.failing > 0) {
      this.failing--;
      socket.end("421 4.3.2 Service not available, try again later\r\n");
      return;
    }
    socket.write("220 fake-smtp ESMTP\r\n");
    let buffer = "";
    let inData = false;
    let mail: ReceivedMail = { from: "", to: [], data: "" };
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          mail.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          this.received.push(mail);
          mail = { from: "", to: [], data: "" };
          socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250-fake-smtp\r\n250 8BITMIME\r\n");
        else if (verb === "MAIL") {
          mail.from = line;
          socket.write("250 2.1.0 OK\r\n");
        } else if (verb === "RCPT") {
          mail.to.push(line);
          socket.write("250 2.1.5 OK\r\n");
        } else if (verb === "DATA") {
          inData = true;
          socket.write("354 end with <CRLF>.<CRLF>\r\n");
        } else if (verb === "QUIT") {
          socket.end("221 2.0.0 bye\r\n");
          return;
        } else socket.write("250 OK\r\n");
      }
    });
    socket.on("error", () => {});
  }
}
