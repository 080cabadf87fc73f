"""What the tests share, by concern: the app and its databases (app), the JSON API's
client (api), the bot (bots), the stored table as only a test may read it (referee),
event streams (streams), server processes and services (servers), the trust suite's
players and viewers (players, clients, pages), the counts it prints (counts), and the
browser's helpers (browser, browser_tables). Test modules import from here, never from
each other."""
