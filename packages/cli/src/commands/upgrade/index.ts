export { upgradeCommand } from './command.js';
export { type AheadPackage, type PackageChange, planUpgrade, type UpgradePlan } from './planUpgrade.js';
export { type UpgradeOptions, type UpgradeReport, upgradeProject } from './upgradeProject.js';
