// Loaded into a server process with `node --import` by durability.js: each SIGUSR2 injects the next
// fault, as code outside any request would raise it.
//   1st SIGUSR2: a promise rejected with nobody awaiting it;
//   2nd SIGUSR2: an exception thrown from a timer.
let signals = 0;
process.on("SIGUSR2", () => {
  signals++;
  if (signals === 1) void Promise.reject(new Error("injected: a rejection nobody awaits"));
  else
    setTimeout(() => {
      throw new Error("injected: a throw outside any request");
    }, 0);
});
