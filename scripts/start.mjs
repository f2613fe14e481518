// `npm start`: the host (`platform-host serve` on an embedded database) lands with the Host core
// work. Until then this shows what the workspace holds and checks that the packages load.
const schema = await import('@platform/integration-schema');
const integration = await import('@platform/sdk/integration');
const runtime = await import('@platform/sdk/runtime');
const cli = await import('@platform/cli');

console.log(`Platform: integration hosting (schema ${schema.SCHEMA_VERSION})

Ready in this workspace:
  @platform/integration-schema  strict definition schema and rules (${Object.keys(schema).length} exports)
  @platform/sdk/integration     defineIntegration, error classes (${Object.keys(integration).length} exports)
  @platform/sdk/runtime         guest engine: createContext, invokeAction, webhooks, schedules (${Object.keys(runtime).length} exports)
  @platform/sdk/testing         createMockContext, invokeActivate
  @platform/cli                 platform ${cli.CLI_VERSION}: ${cli.COMMANDS.map((command) => command.name).join(', ')} (npm run build, then node packages/cli/dist/bin.js --help)

Coming next: the host server (platform-host serve on PGlite), the CLI's host commands, the harness and UI.
Run the tests with: npm test`);
