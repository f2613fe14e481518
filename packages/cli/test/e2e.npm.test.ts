import { describeInstalledProject } from './_e2eSuite.js';

await describeInstalledProject('npm');
