// Inventory transfers and bin moves: reading needs transfers.read (VIEWER and up, inventory:read keys),
// changing them transfers.write (PLANNER and up, inventory:write keys).
export const canReadTransfers = { permission: 'transfers.read' } as const;
export const canWriteTransfers = { permission: 'transfers.write' } as const;
