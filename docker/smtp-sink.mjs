// A mail sink for the container smoke test: accepts every message over plain SMTP and prints it
// as one JSON line ({ "to": [...], "text": "..." }, quoted-printable decoded) on stdout, where the
// smoke test reads the verification link. Never delivers anything anywhere.
import net from "node:net";

const port = Number(process.env.SMTP_PORT ?? 2525);
const decodeQuotedPrintable = (text) =>
  text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)));

net
  .createServer((socket) => {
    let buffer = "";
    let inData = false;
    let to = [];
    let data = [];
    const reply = (line) => socket.write(`${line}\r\n`);
    reply("220 smtp-sink ESMTP");
    socket.on("error", () => {});
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      let end;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            console.log(JSON.stringify({ to, text: decodeQuotedPrintable(data.join("\n")) }));
            [to, data] = [[], []];
            reply("250 OK: kept");
          } else data.push(line.startsWith("..") ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") {
          reply("250-smtp-sink\r\n250 8BITMIME");
        } else if (verb === "RCPT") {
          to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, "$1"));
          reply("250 OK");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 End data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          reply("221 Bye");
          socket.end();
        } else {
          reply("250 OK");
        }
      }
    });
  })
  .listen(port, () => console.error(`smtp-sink listening on ${port}`));
process.on("SIGTERM", () => process.exit(0));
